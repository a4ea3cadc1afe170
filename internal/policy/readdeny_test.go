package policy

import (
	"slices"
	"testing"
)

// A deny on read_file (or a tool pattern covering it) with files is a read
// deny of those files; a deny on another tool, an ask, or a deny of the
// whole read_file tool is not; the workspace's own trusted file counts.
func TestReadDeniesAreTheFileDeniesOnReading(t *testing.T) {
	f := newFixture(t)
	write(t, f.w.UserFile(), `
[[rule]]
decision = "deny"
tool = "read_file"
files = [".env", "keys/**"]
reason = "secrets stay out"

[[rule]]
decision = "deny"
tool = "write_file"
files = ["locked.txt"]

[[rule]]
decision = "ask"
tool = "read_file"
files = ["asked.txt"]

[[rule]]
decision = "deny"
tool = "*"
files = ["**/*.pem", ".env"]
`)
	write(t, f.w.ProjectFile(), `
[[rule]]
decision = "deny"
tool = "read_file"
files = ["private/**"]
`)
	got := ReadDenyGlobs(Load(f.w))
	if want := []string{".env", "keys/**", "**/*.pem"}; !slices.Equal(got, want) {
		t.Fatalf("untrusted project file: %q, want %q", got, want)
	}
	f.trustProject(t)
	ds := ReadDenies(Load(f.w).Rules)
	got = nil
	for _, d := range ds {
		got = append(got, d.Glob)
	}
	if want := []string{".env", "keys/**", "**/*.pem", "private/**"}; !slices.Equal(got, want) {
		t.Fatalf("trusted project file: %q, want %q", got, want)
	}
	if ds[0].Rule.Reason != "secrets stay out" || ds[0].Rule.Layer != LayerUser || ds[3].Rule.Layer != LayerProject {
		t.Fatalf("the rules: %+v", ds)
	}
}
