package workspace

import (
	"os"
	"path/filepath"
	"testing"
)

// A live read-only root set mid-session (a skill folder the user created
// after the session started) is readable, never writable, in the session's
// workspace and in the copies WithReadOnly made of it, at once; replaced,
// it is out again. The workspace it came from never sees it.
func TestLiveReadOnlyRootsJoinAndLeave(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(base, "conf")
	ws := filepath.Join(base, "ws")
	os.MkdirAll(ws, 0o755)
	plain, err := New(ws, Options{ProtectedDirs: []string{conf}})
	if err != nil {
		t.Fatal(err)
	}
	live := plain.WithLiveReadOnly()
	child, err := live.WithReadOnly(ws) // a copy, as a child session's
	if err != nil {
		t.Fatal(err)
	}
	skill := filepath.Join(conf, "skills", "new")
	file := filepath.Join(skill, "SKILL.md")
	if _, err := live.Resolve(file, Read); err == nil {
		t.Fatal("a folder that is no root yet was readable")
	}
	os.MkdirAll(skill, 0o755)
	os.WriteFile(file, []byte("x"), 0o644)
	if err := live.SetLiveReadOnly(skill, filepath.Join(base, "gone")); err == nil {
		t.Error("a root that does not exist was not named")
	}
	for name, w := range map[string]*Workspace{"session": live, "copy": child} {
		if _, err := w.Resolve(file, Read); err != nil {
			t.Errorf("%s: reading the new skill: %v", name, err)
		}
		if _, err := w.Resolve(filepath.Join(skill, "planted.py"), Write); !isCode(err, CodeReadOnly) && !isCode(err, CodeProtected) {
			t.Errorf("%s: writing beside the new skill: %v", name, err)
		}
		if got := w.ReadOnlyRoots(); len(got) == 0 || got[len(got)-1] != skill {
			t.Errorf("%s: roots %v", name, got)
		}
		if w.Rel(file) != file {
			t.Errorf("%s: a live root's file is shown as %q, want it absolute", name, w.Rel(file))
		}
	}
	if _, err := plain.Resolve(file, Read); err == nil {
		t.Error("the workspace the live one came from reads the new root")
	}
	if err := live.SetLiveReadOnly(); err != nil {
		t.Fatal(err)
	}
	if _, err := child.Resolve(file, Read); err == nil {
		t.Error("a root taken out is still readable")
	}
	if err := plain.SetLiveReadOnly(skill); err == nil {
		t.Error("a workspace with fixed roots took live ones")
	}
}
