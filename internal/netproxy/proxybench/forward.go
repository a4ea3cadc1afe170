package main

import (
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"gatehouse/internal/proc"
)

// forwardBench starts the same dev server (python's http.server) under
// direct (this machine's network) and under proxied (the session's
// network: reached from here through the forward of the port the scan
// found), and times a first response on a new connection to each,
// alternating, n times; it prints the medians' ratio (target <= 1.2x).
func forwardBench(direct, proxied *proc.Registry, dir string, n int) {
	os.WriteFile(filepath.Join(dir, "index.html"), []byte("dev server page"), 0o644)
	a, b := freePort(), freePort()
	for _, s := range []struct {
		r    *proc.Registry
		port int
	}{{direct, a}, {proxied, b}} {
		if _, err := s.r.Start("exec python3 -m http.server "+strconv.Itoa(s.port)+" --bind 127.0.0.1", dir); err != nil {
			fail(err)
		}
	}
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}
	first := func(port int) (time.Duration, error) {
		began := time.Now()
		resp, err := client.Get("http://127.0.0.1:" + strconv.Itoa(port) + "/index.html")
		if err != nil {
			return 0, err
		}
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		return time.Since(began), err
	}
	deadline := time.Now().Add(30 * time.Second)
	for _, port := range []int{a, b} {
		for _, err := first(port); err != nil; _, err = first(port) {
			if time.Now().After(deadline) {
				fail(fmt.Errorf("the dev server on %d never answered: %v", port, err))
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	var dd, fd []time.Duration
	for range n {
		d, err := first(a)
		if err != nil {
			fail(err)
		}
		f, err := first(b)
		if err != nil {
			fail(err)
		}
		dd, fd = append(dd, d), append(fd, f)
	}
	fmt.Printf("a dev server (python3 -m http.server) in the session's network, median of %d new connections from this machine:\n", n)
	reportRatio("first response", "through the forward", median(dd), median(fd), 1.2)
}

func freePort() int {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		fail(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}
