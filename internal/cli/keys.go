package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/tsbench/tsbench/internal/config"
)

func newKeysCmd(stdout io.Writer) *cobra.Command {
	var markdown bool
	cmd := &cobra.Command{
		Use:   "keys",
		Short: "List every configuration key (YAML, .properties, --set)",
		Long: `List every configuration key with its meaning and allowed values. A key
has IoT-benchmark's name (DEVICE_NUMBER) and, where a flag of 'tsbench run'
sets it, tsbench's (devices, the flag's name); both work in a YAML file,
an IoT-benchmark config.properties and with --set KEY=VALUE, in any case.`,
		Example: "  tsbench keys\n  tsbench keys --markdown",
		Args:    cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			if markdown {
				return KeysMarkdown(stdout)
			}
			for _, k := range config.Keys() {
				if k.Hidden {
					continue
				}
				name := k.Name
				if k.Flag != "" {
					name = k.PrintName() + " = " + k.Name
				}
				fmt.Fprintf(stdout, "%-28s %s\n", name, k.Doc)
				if k.Ignored != "" {
					fmt.Fprintf(stdout, "%-28s accepted, ignored: %s\n", "", k.Ignored)
				} else if k.Allowed != "" {
					fmt.Fprintf(stdout, "%-28s allowed: %s\n", "", k.Allowed)
				}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print the reference as Markdown tables (as in docs/configuration.md)")
	return cmd
}

// KeysMarkdown writes the key reference as Markdown, one table per group.
// docs/configuration.md embeds its output; a test keeps the two equal.
func KeysMarkdown(w io.Writer) error {
	group := ""
	for _, k := range config.Keys() {
		if k.Hidden {
			continue
		}
		if k.Group != group {
			group = k.Group
			fmt.Fprintf(w, "\n**%s**\n\n| tsbench name · IoT-benchmark key | meaning | allowed |\n|---|---|---|\n", group)
		}
		name := "`" + k.Name + "`"
		if len(k.Aliases) > 0 {
			name += " (also " + strings.Join(k.Aliases, ", ") + ")"
		}
		if k.Flag != "" {
			name = "`" + k.PrintName() + "` · " + name
		}
		allowed := k.Allowed
		if k.Ignored != "" {
			allowed = "accepted, ignored: " + k.Ignored
		}
		fmt.Fprintf(w, "| %s | %s | %s |\n", name, cell(k.Doc), cell(allowed))
	}
	return nil
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
