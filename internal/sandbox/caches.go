package sandbox

import (
	"os"
	"path/filepath"
)

// Cache is one tool cache Gatehouse owns, below its data folder, and the
// variables that point the tools at it.
type Cache struct {
	Dir  string
	Vars []string
}

// cacheVars name, per folder below DataDir/cache, the variables that move
// a tool's cache (and nothing that runs: no bin folder of a user's PATH, no
// init or config folder). No unconfined program reads these folders: the
// user's own tools keep their caches, which commands can read but not
// write.
var cacheVars = []struct {
	rel  string
	vars []string
}{
	{"go/mod", []string{"GOMODCACHE"}},
	{"go/build", []string{"GOCACHE"}},
	{"npm", []string{"npm_config_cache"}},
	{"pnpm", []string{"npm_config_store_dir", "PNPM_HOME"}},
	{"yarn", []string{"YARN_CACHE_FOLDER"}},
	{"bun", []string{"BUN_INSTALL_CACHE_DIR"}},
	{"pip", []string{"PIP_CACHE_DIR"}},
	{"uv", []string{"UV_CACHE_DIR"}},
	{"poetry", []string{"POETRY_CACHE_DIR"}},
	{"cargo", []string{"CARGO_HOME"}},
	{"gradle", []string{"GRADLE_USER_HOME"}},
	{"deno", []string{"DENO_DIR"}},
	{"node-gyp", []string{"npm_config_devdir"}},
	{"xdg", []string{"XDG_CACHE_HOME"}},
}

// Caches lists Gatehouse's tool caches below dataDir ("" : none).
func Caches(dataDir string) []Cache {
	if dataDir == "" {
		return nil
	}
	out := make([]Cache, 0, len(cacheVars))
	for _, c := range cacheVars {
		out = append(out, Cache{Dir: filepath.Join(dataDir, "cache", filepath.FromSlash(c.rel)), Vars: c.vars})
	}
	return out
}

// MakeCaches creates the cache folders (0700), so that a command finds
// them and the mounts of its sandbox have a place.
func MakeCaches(dataDir string) error {
	for _, c := range Caches(dataDir) {
		if err := os.MkdirAll(c.Dir, 0o700); err != nil {
			return err
		}
	}
	return nil
}
