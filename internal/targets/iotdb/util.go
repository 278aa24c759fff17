package iotdb

import "time"

func timeUntilMs(t time.Time) int64 { return time.Until(t).Milliseconds() }
