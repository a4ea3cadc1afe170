package sessionhost

import (
	"path/filepath"

	"gatehouse/internal/hooks"
)

// HooksFile is the user's hooks file in the config folder.
const HooksFile = "hooks.json"

// hooks are the user's hooks for a session in root (nil: none). A hooks
// file that cannot be read whole fails the session's opening, naming the
// file and the place: a check the user wrote must not silently not run.
// The hooks whose id is in off are turned off (Settings → Hooks).
func (h *Host) hooks(root string, off []string) (*hooks.Runner, error) {
	if h.env.ConfigDir == "" {
		return nil, nil
	}
	hs, err := hooks.Load(filepath.Join(h.env.ConfigDir, HooksFile))
	if err != nil || len(hs) == 0 {
		return nil, err
	}
	return &hooks.Runner{Hooks: hooks.Disable(hs, off), ProjectDir: root, Environ: h.env.ProcEnv}, nil
}
