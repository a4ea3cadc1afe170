//go:build !unix

package web

import "time"

func cpuTime() time.Duration { return 0 }
