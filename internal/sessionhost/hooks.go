package sessionhost

import (
	"path/filepath"

	"gatehouse/internal/hooks"
	"gatehouse/internal/trust"
)

// HooksFile is the user's hooks file in the config folder.
const HooksFile = "hooks.json"

// hooks are the hooks of a session in root (nil: none): the user's, run as
// the user, and the workspace's own (.gatehouse/hooks.json), read before
// every run and run only once trusted as they are now, confined as its
// commands are. A user's hooks file that cannot be read whole fails the
// session's opening, naming the file and the place: a check the user
// wrote must not silently not run. The hooks turned off in Settings → Hooks
// are read before every run, so a change reaches open sessions too.
func (h *Host) hooks(root string) (*hooks.Runner, error) {
	if h.env.ConfigDir == "" {
		return nil, nil
	}
	hs, err := hooks.Load(filepath.Join(h.env.ConfigDir, HooksFile))
	if err != nil {
		return nil, err
	}
	r := &hooks.Runner{Hooks: hs, ProjectDir: root, Environ: h.env.ProcEnv,
		Off: func() []string { return h.o.Settings().Settings.HooksOff }}
	if root != "" {
		ws := &hooks.Workspace{Root: root, Trust: trust.NewStore(h.env.ConfigDir)}
		r.Workspace = ws.Hooks
		r.Confine = func(hk hooks.Hook, dir string, env []string) (l hooks.Launched, err error) {
			helper, p, why := h.cmds.Confinement(root, env, h.SandboxFor(root)())
			if launch := hooks.Confined(helper, p); launch != nil {
				return launch(hk, dir, env)
			}
			return l, confineError(why)
		}
	}
	return r, nil
}

// confineError says why a workspace's hook cannot run confined.
type confineError string

func (e confineError) Error() string {
	return "a workspace's hooks run only confined by the sandbox, and it is not available: " + string(e)
}
