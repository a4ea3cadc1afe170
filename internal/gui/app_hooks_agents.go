package gui

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gatehouse/internal/hooks"
	"gatehouse/internal/trust"
	"gatehouse/internal/workspace"
)

// agentHooks are the hooks of the user's agent definitions and of the
// open workspace's (root; listed only: those run confined, once the
// workspace's hooks are trusted), with why a definition's hooks do not
// read. A definition's hooks run for its agent's children only.
func (a *App) agentHooks(root string) ([]hooks.Hook, []string) {
	var out []hooks.Hook
	var errs []string
	add := func(data []byte, source string, confined bool) {
		_, hs, err := hooks.ReadAgent(data, source)
		if err != nil {
			errs = append(errs, err.Error())
			return
		}
		for i := range hs {
			hs[i].Confined = confined
		}
		out = append(out, hs...)
	}
	paths, _ := filepath.Glob(filepath.Join(a.store.Dir(), "agents", "*.md"))
	sort.Strings(paths)
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			add(b, p, false)
		}
	}
	if root == "" {
		return out, errs
	}
	ents, _ := os.ReadDir(filepath.Join(root, filepath.FromSlash(trust.AgentsDir)))
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		rel := trust.AgentsDir + "/" + e.Name()
		if b, _, err := workspace.ReadInside(root, rel, hooks.MaxConfigBytes); err == nil {
			add(b, filepath.Join(root, filepath.FromSlash(rel)), true)
		}
	}
	return out, errs
}
