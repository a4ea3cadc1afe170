package main

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"gatehouse/internal/hooks"
	"gatehouse/internal/tools"
	"gatehouse/internal/tools/builtin"
)

// hooksTargetMs is the bound on what five matching no-op hooks add
// to one call.
const hooksTargetMs = 15

// hooksBench times read_file calls through the router with five matching
// no-op PreToolUse hooks (`true`, run in parallel) against the same router
// without hooks, in the same run, and prints what the hooks add per call
// and the ratio (never asserted: the machine's load moves it).
func (b *bench) hooksBench(calls, runs int) error {
	conf := `{"hooks": {"PreToolUse": [{"matcher": "", "hooks": [` +
		strings.TrimSuffix(strings.Repeat(`{"type": "command", "command": "true"},`, 5), ",") + `]}]}}`
	hs, err := hooks.Parse([]byte(conf), "bench")
	if err != nil {
		return err
	}
	hr := &hooks.Runner{Hooks: hs, ProjectDir: b.ws.Root(), SessionID: "bench"}
	reg, err := builtin.Registry(b.ws, b.procs)
	if err != nil {
		return err
	}
	plain := tools.NewRouter(reg, tools.Policy{}, tools.OutputCap(256<<10))
	hooked := tools.NewRouter(reg, tools.Policy{}, tools.OutputCap(256<<10), hr.Middleware)
	once := func(r *tools.Router) (float64, error) {
		start := time.Now()
		for i := range calls {
			args := fmt.Sprintf(`{"path":"f%03d.txt"}`, i%len(b.results))
			res, err := r.Run(context.Background(), tools.Call{ID: fmt.Sprintf("h%d", i), Name: "read_file", Args: json.RawMessage(args)})
			if err != nil || res.IsError {
				return 0, fmt.Errorf("read_file %s: %v %s", args, err, res.Output)
			}
		}
		return float64(time.Since(start)) / float64(calls), nil
	}
	var none, five []float64
	for r := range runs + 1 {
		n, err := once(plain)
		if err != nil {
			return err
		}
		f, err := once(hooked)
		if err != nil {
			return err
		}
		if r > 0 {
			none, five = append(none, n), append(five, f)
		}
	}
	ms := func(ns float64) float64 { return ns / 1e6 }
	added := median(five) - median(none)
	verdict := "ok"
	if ms(added) > hooksTargetMs {
		verdict = "OVER TARGET"
	}
	fmt.Printf("hooks: %d read_file calls through the router, five matching no-op PreToolUse hooks against none, median of %d runs\n", calls, runs)
	fmt.Printf("  per call, no hooks    %8.3f ms\n", ms(median(none)))
	fmt.Printf("  per call, five hooks  %8.3f ms (%.1fx)\n", ms(median(five)), median(five)/median(none))
	fmt.Printf("  hooks add             %8.3f ms per call (target <= %d ms) %s\n", ms(added), hooksTargetMs, verdict)
	return nil
}
