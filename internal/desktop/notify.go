package desktop

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"time"

	"github.com/godbus/dbus/v5"
)

// Notifier shows desktop notifications. Notify may be called from any
// goroutine; it returns once the notification was handed over or failed, and
// gives up when ctx is done. A failure is not fatal to the caller: the
// notification is a courtesy, the window shows the same thing.
type Notifier interface {
	Notify(ctx context.Context, summary, body string) error
}

// ErrNoSessionBus says there is no D-Bus session bus to send to (a headless
// host, CI, a container).
var ErrNoSessionBus = errors.New("no D-Bus session bus")

// DBusNotifier sends notifications to org.freedesktop.Notifications on the
// user's session bus, over a connection opened for each notification
// (notifications are rare; a long-lived connection would need watching).
type DBusNotifier struct {
	// AppName is the sending application's name shown by the desktop.
	AppName string
	// Getenv reads the environment (nil: os.Getenv); tests replace it.
	Getenv func(string) string
}

// Notify sends one notification. Without a session bus it returns
// ErrNoSessionBus at once; it never starts a bus (no dbus-launch).
func (n DBusNotifier) Notify(ctx context.Context, summary, body string) error {
	addr := n.sessionBusAddress()
	if addr == "" {
		return ErrNoSessionBus
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
	}
	// The context also bounds the handshake: the connection closes when it
	// is done.
	conn, err := dbus.Connect(addr, dbus.WithContext(ctx))
	if err != nil {
		return err
	}
	defer conn.Close()
	obj := conn.Object("org.freedesktop.Notifications", "/org/freedesktop/Notifications")
	// Notify(app_name, replaces_id, app_icon, summary, body, actions, hints, expire_timeout)
	call := obj.CallWithContext(ctx, "org.freedesktop.Notifications.Notify", 0,
		n.AppName, uint32(0), "", summary, body, []string{}, map[string]dbus.Variant{}, int32(-1))
	return call.Err
}

// sessionBusAddress is $DBUS_SESSION_BUS_ADDRESS, else the systemd user bus
// socket when it exists, else "".
func (n DBusNotifier) sessionBusAddress() string {
	getenv := n.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if a := getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		return a
	}
	if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
		sock := filepath.Join(dir, "bus")
		if fi, err := os.Stat(sock); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return "unix:path=" + sock
		}
	}
	return ""
}
