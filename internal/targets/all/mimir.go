package all

import _ "github.com/tsbench/tsbench/internal/targets/mimir"
