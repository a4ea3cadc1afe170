//go:build linux

package sandbox_test

import (
	"archive/zip"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A venv made and filled from a local wheel, confined, with pip's cache
// Gatehouse's own.
func TestEverydayPipInstallsALocalWheel(t *testing.T) {
	if exec.Command("python3", "-c", "import venv, ensurepip").Run() != nil {
		t.Skip("python3 with venv and ensurepip is not installed")
	}
	b := newBoxWith(t, boxOpts{on: true})
	writeWheel(t, filepath.Join(b.ws, "tinypkg-0.1-py3-none-any.whl"), map[string]string{
		"tinypkg/__init__.py":            "VALUE = 42\n",
		"tinypkg-0.1.dist-info/METADATA": "Metadata-Version: 2.1\nName: tinypkg\nVersion: 0.1\n",
		"tinypkg-0.1.dist-info/WHEEL":    "Wheel-Version: 1.0\nGenerator: gatehouse-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
	})
	out := b.mustRun(t, `python3 -m venv .venv && .venv/bin/pip install --disable-pip-version-check --no-index ./tinypkg-0.1-py3-none-any.whl && .venv/bin/python -c 'import tinypkg; print("value", tinypkg.VALUE)'`)
	if !strings.Contains(out, "value 42") {
		t.Fatalf("the wheel did not install: %s", out)
	}
}

// writeWheel writes a pure-Python wheel of files, with its RECORD.
func writeWheel(t *testing.T, path string, files map[string]string) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	z := zip.NewWriter(f)
	var record strings.Builder
	for name, body := range files {
		w, err := z.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(body))
		sum := sha256.Sum256([]byte(body))
		fmt.Fprintf(&record, "%s,sha256=%s,%d\n", name, base64.RawURLEncoding.EncodeToString(sum[:]), len(body))
	}
	rec := "tinypkg-0.1.dist-info/RECORD"
	record.WriteString(rec + ",,\n")
	w, err := z.Create(rec)
	if err != nil {
		t.Fatal(err)
	}
	w.Write([]byte(record.String()))
	if err := z.Close(); err != nil {
		t.Fatal(err)
	}
}
