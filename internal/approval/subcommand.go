package approval

import (
	"slices"
	"strings"
)

// globalValueOpts lists, per program of the tables, the options that may
// come before the subcommand and take the next word as their value
// (`git -C dir push`, `npm --prefix dir install`). Options written
// `--name=value` and flags without a value need no entry.
var globalValueOpts = map[string][]string{
	"git":      {"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix"},
	"npm":      {"-C", "--prefix", "-w", "--workspace", "--registry", "--userconfig", "--globalconfig", "--cache", "--loglevel"},
	"pnpm":     {"-C", "--dir", "-F", "--filter", "--reporter", "--loglevel"},
	"yarn":     {"--cwd", "--registry", "--cache-folder", "--modules-folder"},
	"bun":      {"--cwd", "-c", "--config"},
	"pip":      {"--python", "--log", "--proxy", "--retries", "--timeout", "--exists-action", "--trusted-host", "--cert", "--client-cert", "--cache-dir"},
	"pip3":     {"--python", "--log", "--proxy", "--retries", "--timeout", "--exists-action", "--trusted-host", "--cert", "--client-cert", "--cache-dir"},
	"uv":       {"--directory", "--project", "--config-file", "--cache-dir", "--color"},
	"poetry":   {"-C", "--directory", "-P", "--project"},
	"go":       {"-C"},
	"cargo":    {"-C", "--config", "-Z", "--color"},
	"gem":      {"--config-file"},
	"composer": {"-d", "--working-dir"},
	"docker":   {"-H", "--host", "-c", "--context", "--config", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"},
	"podman":   {"-c", "--connection", "--url", "--root", "--runroot", "--storage-driver", "--log-level", "--cgroup-manager", "--events-backend"},
}

// subcommand returns the subcommand of prog in args (its arguments) and its
// index, seeing through the global options before it; "" and -1 when there
// is none.
func subcommand(prog string, args []string) (string, int) {
	opts := globalValueOpts[prog]
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w == "--":
			if i+1 < len(args) {
				return args[i+1], i + 1
			}
			return "", -1
		case prog == "cargo" && strings.HasPrefix(w, "+"): // a toolchain: cargo +nightly build
		case !strings.HasPrefix(w, "-") || w == "-":
			return w, i
		case strings.Contains(w, "="):
		case slices.Contains(opts, w):
			i++ // its value
		}
	}
	return "", -1
}
