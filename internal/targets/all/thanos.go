package all

import _ "github.com/tsbench/tsbench/internal/targets/thanos"
