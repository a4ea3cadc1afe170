package patch

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/workspace"
)

// readTree returns every file under dir by slash path; ".keep" files (which
// let git hold empty folders) are left out.
func readTree(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	tree := map[string][]byte{}
	if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
		return tree
	}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == ".keep" {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		tree[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

func writeTree(t testing.TB, dir string, tree map[string][]byte) {
	t.Helper()
	for p, b := range tree {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func diffTrees(t testing.TB, got, want map[string][]byte) {
	t.Helper()
	for p, w := range want {
		g, ok := got[p]
		if !ok {
			t.Errorf("missing file %s", p)
		} else if !bytes.Equal(g, w) {
			t.Errorf("file %s:\n got %q\nwant %q", p, g, w)
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("unexpected file %s", p)
		}
	}
}

// applyText parses, plans and applies patch text in the workspace at dir.
func applyText(dir, text string) (*Plan, error) {
	ws, err := workspace.New(dir, workspace.Options{ProtectedDirs: []string{}})
	if err != nil {
		return nil, err
	}
	p, err := Parse(text)
	if err != nil {
		return nil, err
	}
	plan, err := Preview(ws, p, nil)
	if err != nil {
		return nil, err
	}
	return plan, plan.Apply(nil)
}

func TestScenarios(t *testing.T) {
	dirs, err := filepath.Glob("testdata/scenarios/*")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no scenarios: %v", err)
	}
	for _, sd := range dirs {
		t.Run(filepath.Base(sd), func(t *testing.T) {
			input := readTree(t, filepath.Join(sd, "input"))
			work := t.TempDir()
			writeTree(t, work, input)
			text, err := os.ReadFile(filepath.Join(sd, "patch.txt"))
			if err != nil {
				t.Fatal(err)
			}
			_, err = applyText(work, string(text))
			got := readTree(t, work)
			if want, rerr := os.ReadFile(filepath.Join(sd, "error.txt")); rerr == nil {
				code := strings.TrimSpace(string(want))
				var c interface{ ErrorCode() string }
				if !errors.As(err, &c) || c.ErrorCode() != code {
					t.Fatalf("error = %v, want code %s", err, code)
				}
				diffTrees(t, got, input) // nothing changed
				return
			}
			if err != nil {
				t.Fatalf("apply: %v", err)
			}
			diffTrees(t, got, readTree(t, filepath.Join(sd, "expected")))
		})
	}
}
