package about

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
)

type lockEntry struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	License              json.RawMessage   `json:"license"`
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	Link                 bool              `json:"link"`
}

// npmPackages walks the production dependency graph from the root's
// "dependencies" through each package's dependencies and optional ones
// (peers are provided by someone else; dev ones are not shipped), resolving
// names the way Node does: the nearest node_modules folder up the tree.
func npmPackages(frontend string) ([]Component, error) {
	b, err := os.ReadFile(filepath.Join(frontend, "package-lock.json"))
	if err != nil {
		return nil, fmt.Errorf("npm packages: %w", err)
	}
	var lock struct {
		LockfileVersion int                  `json:"lockfileVersion"`
		Packages        map[string]lockEntry `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		return nil, fmt.Errorf("npm packages: package-lock.json: %w", err)
	}
	if lock.LockfileVersion < 2 || lock.Packages[""].Name == "" && len(lock.Packages) == 0 {
		return nil, fmt.Errorf("npm packages: package-lock.json version %d has no packages map (npm 7 or later writes one)", lock.LockfileVersion)
	}
	if _, err := os.Stat(filepath.Join(frontend, "node_modules")); err != nil {
		return nil, ErrNoModules
	}
	seen := map[string]bool{}
	var comps []Component
	var visit func(from, name string) error
	visit = func(from, name string) error {
		key := resolve(lock.Packages, from, name)
		if key == "" {
			return fmt.Errorf("npm packages: %s needs %s, which package-lock.json does not have", orRoot(from), name)
		}
		if seen[key] {
			return nil
		}
		seen[key] = true
		e := lock.Packages[key]
		dir := filepath.Join(frontend, filepath.FromSlash(key))
		var pkg lockEntry
		if pb, err := os.ReadFile(filepath.Join(dir, "package.json")); err != nil {
			if _, optional := lock.Packages[from].OptionalDependencies[name]; optional {
				return nil // an optional package for another platform
			}
			return fmt.Errorf("npm packages: %s is not installed: %w (run make deps-npm)", key, err)
		} else if err := json.Unmarshal(pb, &pkg); err != nil {
			return fmt.Errorf("npm packages: %s/package.json: %w", key, err)
		}
		text := licenseText(dir)
		lic := licenseField(pkg.License)
		if lic == "" {
			lic = licenseField(e.License)
		}
		if lic == "" {
			lic = classify(text)
		}
		comps = append(comps, Component{Kind: "npm", Name: name, Version: pkg.Version, License: lic, Text: text})
		for _, deps := range []map[string]string{e.Dependencies, e.OptionalDependencies} {
			for dep := range deps {
				if err := visit(key, dep); err != nil {
					return err
				}
			}
		}
		return nil
	}
	for dep := range lock.Packages[""].Dependencies {
		if err := visit("", dep); err != nil {
			return nil, err
		}
	}
	sortByName(comps)
	return comps, nil
}

// resolve finds the lock key name resolves to from the package at key from:
// from/node_modules/name, then each enclosing package's, then the root's.
func resolve(pkgs map[string]lockEntry, from, name string) string {
	for dir := from; ; {
		key := path.Join(dir, "node_modules", name)
		if e, ok := pkgs[key]; ok && !e.Link {
			return key
		}
		if dir == "" {
			return ""
		}
		i := strings.LastIndex(dir, "/node_modules/")
		if i < 0 {
			dir = ""
		} else {
			dir = dir[:i]
		}
	}
}

// licenseField reads package.json's "license": a string or {"type": …}.
func licenseField(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var o struct{ Type string }
	if json.Unmarshal(raw, &o) == nil {
		return o.Type
	}
	return ""
}

func orRoot(key string) string {
	if key == "" {
		return "package.json"
	}
	return key
}
