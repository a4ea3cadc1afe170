// Command fakellm serves a llmtest script as an OpenAI-compatible model
// server on a loopback address, for end-to-end tests. It is a test tool and
// never part of the app binary.
//
//	fakellm -script FILE [-addr 127.0.0.1:0] [-url-file PATH]
//
// It prints the base URL (http://127.0.0.1:PORT/v1) as the first line of
// stdout (and writes it to -url-file when given), then serves until SIGINT
// or SIGTERM. Besides the model API (chat/completions and responses, the
// same script on both) it answers GET /_requests (every request,
// as JSON) and GET /_violations (a JSON array of strings). On exit it prints
// each violation to stderr and exits 1 if there was any.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"

	"gatehouse/internal/llm/llmtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil))
}

// run serves until ctx ends; ready, if not nil, receives the base URL.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, ready chan<- string) int {
	fs := flag.NewFlagSet("fakellm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	scriptPath := fs.String("script", "", "script file (JSON, see package llmtest)")
	addr := fs.String("addr", "127.0.0.1:0", "loopback address to listen on")
	urlFile := fs.String("url-file", "", "also write the base URL to this file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *scriptPath == "" {
		fmt.Fprintln(stderr, "fakellm: -script is required")
		return 2
	}
	script, err := llmtest.LoadScript(*scriptPath)
	if err != nil {
		fmt.Fprintln(stderr, "fakellm:", err)
		return 2
	}
	host, _, err := net.SplitHostPort(*addr)
	if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
		fmt.Fprintf(stderr, "fakellm: %q is not a loopback address\n", *addr)
		return 2
	}
	l, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(stderr, "fakellm:", err)
		return 1
	}
	h := llmtest.NewHandler(script)
	srv := &http.Server{Handler: h}
	url := "http://" + l.Addr().String() + "/v1"
	if *urlFile != "" {
		if err := os.WriteFile(*urlFile, []byte(url+"\n"), 0o644); err != nil {
			fmt.Fprintln(stderr, "fakellm:", err)
			return 1
		}
	}
	fmt.Fprintln(stdout, url)
	if ready != nil {
		ready <- url
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(l) }()
	select {
	case <-ctx.Done():
		srv.Close() // also ends hanging streams
	case err := <-errc:
		if !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintln(stderr, "fakellm:", err)
			return 1
		}
	}
	if v := h.Violations(); len(v) > 0 {
		for _, s := range v {
			fmt.Fprintln(stderr, "fakellm: violation:", s)
		}
		return 1
	}
	return 0
}
