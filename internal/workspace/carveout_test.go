package workspace

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// A skill folder inside Gatehouse's protected config folder, made a
// read-only root, is readable; writes to it, and reads of the rest of the
// config folder (settings, the key, trust decisions), stay refused.
func TestReadOnlyRootInsideProtectedFolderIsReadableOnly(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(base, "conf")
	skill := filepath.Join(conf, "skills", "pdf")
	ws := filepath.Join(base, "ws")
	for _, d := range []string{skill, ws} {
		os.MkdirAll(d, 0o755)
	}
	os.WriteFile(filepath.Join(skill, "SKILL.md"), []byte("x"), 0o644)
	os.WriteFile(filepath.Join(conf, "key"), []byte("secret"), 0o600)
	plain, err := New(ws, Options{ProtectedDirs: []string{conf}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := plain.Resolve(filepath.Join(skill, "SKILL.md"), Read); !isCode(err, CodeProtected) {
		t.Fatalf("without the root the skill is protected: %v", err)
	}
	w, err := plain.WithReadOnly(skill)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Resolve(filepath.Join(skill, "SKILL.md"), Read); err != nil {
		t.Errorf("reading the skill: %v", err)
	}
	if _, err := w.Resolve(filepath.Join(skill, "new.py"), Write); err == nil {
		t.Errorf("writing beside the skill was allowed")
	}
	if _, err := w.Resolve(filepath.Join(skill, "..", "..", "key"), Read); !isCode(err, CodeProtected) {
		t.Errorf("the rest of the config folder: %v", err)
	}
	if _, err := plain.Resolve(filepath.Join(skill, "SKILL.md"), Read); !isCode(err, CodeProtected) {
		t.Errorf("WithReadOnly changed the workspace it came from: %v", err)
	}
	// The protected folder itself as a root carves nothing out.
	whole, _ := plain.WithReadOnly(conf)
	if _, err := whole.Resolve(filepath.Join(conf, "key"), Read); !isCode(err, CodeProtected) {
		t.Errorf("a root that is the protected folder opened it: %v", err)
	}
}

func isCode(err error, code string) bool {
	var e *Error
	return errors.As(err, &e) && e.Code == code
}
