package lsp

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// withGo is env with the go command on its PATH: gopls runs `go list` to
// load a module, and without go it only says that no active build
// contains the file. A login environment can lack it (a login shell that
// resets PATH, a fresh HOME) while the app's own PATH, or Go's usual
// install folder, has it; its folder then goes last on the server's PATH.
func withGo(env []string) []string {
	if _, err := LookPath(goExe(), env); err == nil {
		return env
	}
	dirs := filepath.SplitList(os.Getenv("PATH"))
	dirs = append(dirs, goInstallDirs()...)
	for _, d := range dirs {
		if d == "" || !filepath.IsAbs(d) {
			continue
		}
		if _, err := LookPath(filepath.Join(d, goExe()), nil); err != nil {
			continue
		}
		out := make([]string, 0, len(env)+1)
		path := ""
		for _, kv := range env {
			if strings.HasPrefix(kv, "PATH=") {
				path = kv[len("PATH="):]
				continue
			}
			out = append(out, kv)
		}
		if path != "" {
			d = path + string(os.PathListSeparator) + d
		}
		return append(out, "PATH="+d)
	}
	return env
}

func goExe() string {
	if runtime.GOOS == "windows" {
		return "go.exe"
	}
	return "go"
}

// goInstallDirs are where Go's installers put the go command.
func goInstallDirs() []string {
	if runtime.GOOS == "windows" {
		return []string{`C:\Program Files\Go\bin`}
	}
	return []string{"/usr/local/go/bin", "/usr/lib/go/bin", "/opt/homebrew/bin"}
}
