package suptest

import (
	"os"
	"path/filepath"

	"gatehouse/internal/sandbox"
)

// HelperAt is path, or, when it is "", a helper built into dir (the
// benchmarks' -supervisor flag).
func HelperAt(path, dir string) (string, error) {
	if path != "" {
		return path, nil
	}
	path = filepath.Join(dir, "gatehouse-supervisor")
	return path, Build(path)
}

// BenchSpec is the sandbox of a benchmark's commands: confined to dir
// with every layer this system has (landlockOnly: Landlock and seccomp
// alone), Gatehouse's data and settings folders in dir, as the app's are
// in the home folder.
func BenchSpec(dir string, landlockOnly bool) sandbox.Spec {
	l := sandbox.Detect()
	if landlockOnly {
		l.Bwrap = ""
	}
	data := filepath.Join(dir, "data")
	scratch := filepath.Join(data, "scratch", "bench")
	os.MkdirAll(filepath.Join(scratch, "tmp"), 0o700)
	sandbox.MakeCaches(data)
	return sandbox.Spec{Workspace: dir, Scratch: scratch, Home: sandbox.HomeDir(os.Environ()), Env: os.Environ(),
		DataDir: data, ConfigDir: filepath.Join(dir, "config"), Layers: l}
}
