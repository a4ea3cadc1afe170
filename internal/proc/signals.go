package proc

import (
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// HandleSignals calls shutdown once, on its own goroutine, when the app gets
// SIGINT or SIGTERM; shutdown should CloseAll every registry and then quit the
// app (ExitCode gives the conventional status). Until stop is called, those
// signals no longer end the app by themselves. stop restores the default
// handling; it may be called more than once.
func HandleSignals(shutdown func(os.Signal)) (stop func()) {
	ch := make(chan os.Signal, 1)
	quit := make(chan struct{})
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	go func() {
		select {
		case sig := <-ch:
			shutdown(sig)
		case <-quit:
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			signal.Stop(ch)
			close(quit)
		})
	}
}

// ExitCode is the status a process conventionally exits with after sig.
func ExitCode(sig os.Signal) int {
	if s, ok := sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 1
}
