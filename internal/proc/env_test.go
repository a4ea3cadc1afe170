//go:build linux

package proc

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSanitizeEnvStripsKeyAndSettings(t *testing.T) {
	got := SanitizeEnv([]string{"PATH=/bin", "OPENAI_API_KEY=sk-x", "GATEHOUSE_MODEL=m", "HOME=/h", "EXTRA=1", "OPENAI_API_KEYS=ok"}, "EXTRA")
	if want := []string{"PATH=/bin", "HOME=/h", "OPENAI_API_KEYS=ok"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func writeShell(t *testing.T, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "fakesh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoginEnvReadsTheShellOnce(t *testing.T) {
	count := filepath.Join(t.TempDir(), "count")
	// A login shell whose profile prints noise and exports the API key.
	sh := writeShell(t, `echo run >> `+count+`
echo "Welcome! motd"
export PATH=/login/bin:/usr/bin OPENAI_API_KEY=sk-secret GATEHOUSE_DEBUG=1 FROM_PROFILE=yes
exec /bin/sh -c "$4"
`)
	l := &LoginEnv{Shell: sh, Timeout: 5 * time.Second}
	env := l.Environ()
	if l.Err() != nil {
		t.Fatal(l.Err())
	}
	l.Environ()
	if !slices.Contains(env, "FROM_PROFILE=yes") || !slices.Contains(env, "PATH=/login/bin:/usr/bin") {
		t.Fatalf("login env not read: %v", env)
	}
	for _, kv := range env {
		if strings.HasPrefix(kv, "OPENAI_API_KEY=") || strings.HasPrefix(kv, "GATEHOUSE_") {
			t.Fatalf("%s reached the environment", kv)
		}
	}
	if b, _ := os.ReadFile(count); strings.Count(string(b), "run") != 1 {
		t.Fatalf("the shell ran %d times", strings.Count(string(b), "run"))
	}
}

func TestLoginEnvSlowProfileFallsBack(t *testing.T) {
	sh := writeShell(t, "sleep 20\n")
	l := &LoginEnv{Shell: sh, Timeout: 300 * time.Millisecond, Fallback: []string{"PATH=/fallback", "OPENAI_API_KEY=sk-x"}}
	began := time.Now()
	env := l.Environ()
	if d := time.Since(began); d > 3*time.Second {
		t.Fatalf("a slow profile held the app for %v", d)
	}
	if !slices.Equal(env, []string{"PATH=/fallback"}) || l.Err() == nil {
		t.Fatalf("got %v, err %v", env, l.Err())
	}
}
