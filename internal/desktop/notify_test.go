package desktop

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestDBusNotifierFailsQuietlyWithoutASessionBus(t *testing.T) {
	env := map[string]string{"XDG_RUNTIME_DIR": t.TempDir()} // no bus socket in it
	n := DBusNotifier{AppName: "Gatehouse", Getenv: func(k string) string { return env[k] }}
	start := time.Now()
	err := n.Notify(context.Background(), "Process failed (exit 1)", "npm test")
	if !errors.Is(err, ErrNoSessionBus) {
		t.Fatalf("Notify without a bus = %v, want ErrNoSessionBus", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("Notify took %v without a bus", d)
	}
}

func TestDBusNotifierGivesUpOnAnUnreachableBus(t *testing.T) {
	env := map[string]string{"DBUS_SESSION_BUS_ADDRESS": "unix:path=" + t.TempDir() + "/missing"}
	n := DBusNotifier{AppName: "Gatehouse", Getenv: func(k string) string { return env[k] }}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := n.Notify(ctx, "s", "b"); err == nil {
		t.Fatal("Notify to a missing socket succeeded")
	}
}
