package sessionhost

import (
	"gatehouse/internal/policy"
	cmdhost "gatehouse/internal/sandbox/host"
)

// SandboxFor is the sandbox part of the settings in effect for the
// commands of workspace root, with the read denies of its standing
// policy: read again for each command, so a policy edit holds for the
// next one without a restart.
func (h *Host) SandboxFor(root string) func() cmdhost.Config {
	return WithPolicyDenies(h.env.ConfigDir, root, h.Sandbox)
}

// WithPolicyDenies adds to the sandbox settings base says the read denies
// of the standing policy of root, whose user files are in configDir (""
// or no workspace: base as it is).
func WithPolicyDenies(configDir, root string, base func() cmdhost.Config) func() cmdhost.Config {
	if configDir == "" || root == "" {
		return base
	}
	src := policy.NewSource(PolicyWhereIn(configDir, root))
	return func() cmdhost.Config {
		c := base()
		c.DenyGlobs = policy.ReadDenyGlobs(src.Policy())
		return c
	}
}
