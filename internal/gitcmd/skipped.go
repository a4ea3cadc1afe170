package gitcmd

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// NeedsTrust is a commit or merge refused in safe mode: the repository's
// settings ask for programs safe mode would leave out (Skipped), so
// running it without them would not be what the user expects. Trusting
// the repository's git settings lets it run.
type NeedsTrust struct {
	// Skipped names each left-out program: "hook pre-commit",
	// "commit.gpgsign", "filter.lfs.clean".
	Skipped []string
}

func (e *NeedsTrust) Error() string {
	return fmt.Sprintf("%s (it would run %s)", ErrUntrusted, strings.Join(e.Skipped, ", "))
}

func (e *NeedsTrust) Unwrap() error { return ErrUntrusted }

// Skipped lists what the repository's settings would run in dir that safe
// mode leaves out: its hooks (in .git/hooks or core.hooksPath, samples
// aside), signing, fsmonitor, external diff, and every filter, merge
// driver and credential helper its config names. Empty: safe mode changes
// nothing a commit or merge would do.
func (g Git) Skipped(ctx context.Context, dir string) ([]string, error) {
	out, err := runEnv(ctx, g.Program, dir, nil, nil, "config", "--null", "--list")
	if err != nil && !noConfig(err) {
		return nil, fmt.Errorf("reading the repository's git settings: %w", err)
	}
	var skipped []string
	for _, kv := range strings.Split(string(out), "\x00") {
		key, value, _ := strings.Cut(kv, "\n")
		off := value == "" || value == "false" || value == "0" || value == "no" || value == "off"
		switch key {
		case "commit.gpgsign", "tag.gpgsign", "core.fsmonitor", "diff.external":
			if !off {
				skipped = append(skipped, key)
			}
			continue
		}
		if _, ok := neutral(key, g.Program); ok && value != "" && !strings.HasPrefix(key, "diff.") {
			skipped = append(skipped, key)
		}
	}
	hooks, err := runEnv(ctx, g.Program, dir, nil, nil, "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	if err != nil {
		return nil, err
	}
	h := strings.TrimSpace(string(hooks))
	if !filepath.IsAbs(h) {
		h = filepath.Join(dir, h)
	}
	es, _ := os.ReadDir(h)
	for _, e := range es {
		if strings.HasSuffix(e.Name(), ".sample") || e.IsDir() {
			continue
		}
		skipped = append(skipped, "hook "+e.Name())
	}
	slices.Sort(skipped)
	return slices.Compact(skipped), nil
}
