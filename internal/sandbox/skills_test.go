//go:build linux

package sandbox_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A user's skill, in Gatehouse's config folder or in ~/.agents/skills, is
// read and its Python script runs, confined; nothing is written beside it,
// and the rest of the config folder stays unreadable. With namespaces the
// skills folder is mounted back read-only; with Landlock alone it is a read
// grant.
func TestSkillScriptsRunButNothingIsWrittenBesideThem(t *testing.T) {
	needPython(t)
	layered(t, boxOpts{on: true}, func(t *testing.T, b *box) {
		mine := filepath.Join(b.config, "skills", "pdf")
		shared := filepath.Join(b.home, ".agents", "skills", "lint")
		for i, dir := range []string{mine, shared} {
			os.MkdirAll(filepath.Join(dir, "scripts"), 0o755)
			os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: x\ndescription: d\n---\n"), 0o644)
			os.WriteFile(filepath.Join(dir, "scripts", "run.py"), []byte("import sys\nprint('skill ran', "+string(rune('0'+i))+")\n"), 0o644)
		}
		os.WriteFile(filepath.Join(b.config, "api-key"), []byte("sk-saved-key"), 0o600)
		for i, dir := range []string{mine, shared} {
			out := b.mustRun(t, "python3 "+filepath.Join(dir, "scripts", "run.py")+" && cat "+filepath.Join(dir, "SKILL.md"))
			if !strings.Contains(out, "skill ran "+string(rune('0'+i))) || !strings.Contains(out, "description: d") {
				t.Errorf("%s: the script did not run or SKILL.md was not read: %q", dir, out)
			}
			for _, cmd := range []string{
				"echo evil > " + filepath.Join(dir, "scripts", "run.py"),
				"touch " + filepath.Join(dir, "planted.py"),
				"mkdir " + filepath.Join(dir, "scripts", "new"),
			} {
				if code, out := b.run(t, cmd); code == 0 {
					t.Errorf("%s: wrote beside the skill (exit 0): %q", cmd, out)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "scripts", "run.py")); !strings.Contains(string(b), "skill ran") {
				t.Errorf("%s: the script changed: %q", dir, b)
			}
			if exists(filepath.Join(dir, "planted.py")) {
				t.Errorf("%s: a file was planted beside the skill", dir)
			}
		}
		if code, out := b.run(t, "cat "+filepath.Join(b.config, "api-key")); code == 0 || strings.Contains(out, "sk-saved-key") {
			t.Errorf("the config folder beside the skills was read (exit %d): %q", code, out)
		}
	})
}
