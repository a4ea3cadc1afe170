package browse

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gatehouse/internal/watch"
	"gatehouse/internal/workspace"
)

func open(t *testing.T, tree map[string]string) (*Workspace, string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range tree {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(root, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(ws, watch.LiveOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Stop)
	<-b.Live().W.Ready()
	return b, root
}

// pngHead is the start of a PNG file: its signature and IHDR chunk.
var pngHead = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00")

func TestReadShowsTextAndSaysBinary(t *testing.T) {
	big := append(append([]byte{}, pngHead...), bytes.Repeat([]byte{0xff, 0x80, 0x10}, ViewMax/2)...) // > 1 MiB
	noNUL := bytes.Repeat([]byte{0xe9, 0x41}, ViewMax)                                                // Latin-1, no NUL byte, > 1 MiB
	cut := strings.Repeat("a", ViewMax-1) + "é and more"                                              // the limit falls inside é
	b, _ := open(t, map[string]string{"a.txt": "hello\n", "img.png": string(big), "latin1.txt": string(noNUL), "cut.txt": cut,
		"small.png": string(pngHead)})
	for _, c := range []struct {
		path      string
		binary    bool
		content   string
		truncated bool
	}{
		{"a.txt", false, "hello\n", false},
		{"small.png", true, "", false},
		{"img.png", true, "", true}, // was: trimmed to nothing, shown as empty text
		{"latin1.txt", true, "", true},
		{"cut.txt", false, strings.Repeat("a", ViewMax-1), true},
	} {
		v, err := b.Read(c.path)
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		if v.Binary != c.binary || v.Content != c.content || v.Truncated != c.truncated || v.Path != c.path {
			t.Errorf("%s: binary %v truncated %v content %.20q (%d bytes), want binary %v truncated %v %.20q",
				c.path, v.Binary, v.Truncated, v.Content, len(v.Content), c.binary, c.truncated, c.content)
		}
	}
}

func TestReadAndListStayInTheWorkspace(t *testing.T) {
	b, root := open(t, map[string]string{"src/main.go": "package main\n", "README.md": "# hi\n", ".git/config": "[core]\n"})
	list, err := b.ListDir("")
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name)
	}
	if strings.Join(names, ",") != "src,README.md" {
		t.Errorf("root lists %v (folders first, .git left out)", names)
	}
	if sub, err := b.ListDir("src"); err != nil || len(sub) != 1 || sub[0].Path != "src/main.go" || sub[0].Size != 13 {
		t.Errorf("src: %+v %v", sub, err)
	}
	for _, bad := range []string{"../x", filepath.Join(filepath.Dir(root), "x")} {
		if _, err := b.Read(bad); err == nil {
			t.Errorf("Read(%s) went outside", bad)
		}
		if _, err := b.ListDir(bad); err == nil {
			t.Errorf("ListDir(%s) went outside", bad)
		}
	}
	if _, err := b.Read("src"); err == nil {
		t.Error("a folder read as a file")
	}
}

func TestDiffOfAChangedFile(t *testing.T) {
	b, root := open(t, map[string]string{"a.txt": "one\n"})
	if _, err := b.Diff("a.txt"); err == nil {
		t.Fatal("a diff of an unchanged file")
	}
	b.Live().T.Read("a.txt") // its content is known from before the change
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("two\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var d FileDiff
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var err error
		if d, err = b.Diff("a.txt"); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the change was not seen:", err)
		}
	}
	if !strings.Contains(d.Diff, "-one") || !strings.Contains(d.Diff, "+two") {
		t.Errorf("diff %q note %q", d.Diff, d.Note)
	}
}
