// Package about lists what the app bundles, with licences, for the About
// box (issue 22). It runs at build time (cmd/licensegen, from the Makefile):
// the Go modules linked into the binary come from `go list -deps` of the
// main package with the build's tags, their licence texts from the files in
// the module cache; the npm packages are the frontend's production
// dependencies (package.json "dependencies" and what they depend on, not
// peers, not dev), read from package-lock.json and node_modules.
package about

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// List is the generated file's shape (frontend: src/components/About.tsx).
type List struct {
	Version    string      `json:"version"`
	Go         string      `json:"go"`
	Components []Component `json:"components"`
}

// Component is one bundled module or package.
type Component struct {
	Kind    string `json:"kind"` // "go" or "npm"
	Name    string `json:"name"`
	Version string `json:"version"`
	License string `json:"license"` // an SPDX-style name, "UNKNOWN" when none was found
	Text    string `json:"text"`    // the licence files' text
}

// Options says where to look.
type Options struct {
	Version  string // the app's version
	Dir      string // the Go main package's directory
	Tags     string // build tags, as for go build -tags
	Frontend string // the frontend folder (package.json, package-lock.json, node_modules)
}

// Collect gathers the list; warnings name components without licence text.
func Collect(o Options) (List, []string, error) {
	l := List{Version: o.Version}
	goMods, goVersion, err := goModules(o.Dir, o.Tags)
	if err != nil {
		return l, nil, err
	}
	npm, err := npmPackages(o.Frontend)
	if err != nil {
		return l, nil, err
	}
	l.Go = goVersion
	l.Components = append(goMods, npm...)
	var warnings []string
	for i, c := range l.Components {
		if c.Text == "" {
			l.Components[i].License = "UNKNOWN"
			warnings = append(warnings, fmt.Sprintf("%s %s %s: no licence file found", c.Kind, c.Name, c.Version))
		}
	}
	return l, warnings, nil
}

type goModule struct {
	Path, Version, Dir string
	Main               bool
	Replace            *goModule
}

// goModules runs go list on the main package: every module one of its
// packages comes from, and the standard library (the Go toolchain's LICENSE).
func goModules(dir, tags string) ([]Component, string, error) {
	args := []string{"list", "-deps", "-json=ImportPath,Module,Standard"}
	if tags != "" {
		args = append(args, "-tags", tags)
	}
	cmd := exec.Command("go", append(args, ".")...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, "", fmt.Errorf("go list -deps in %s: %v: %s", dir, err, strings.TrimSpace(stderr.String()))
	}
	seen := map[string]bool{}
	var comps []Component
	std := false
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p struct {
			Standard bool
			Module   *goModule
		}
		if err := dec.Decode(&p); err != nil {
			return nil, "", fmt.Errorf("go list output: %w", err)
		}
		std = std || p.Standard
		m := p.Module
		if m == nil || m.Main || seen[m.Path] {
			continue
		}
		seen[m.Path] = true
		version, mdir := m.Version, m.Dir
		if m.Replace != nil {
			version, mdir = m.Replace.Version, m.Replace.Dir
		}
		text := licenseText(mdir)
		comps = append(comps, Component{Kind: "go", Name: m.Path, Version: version, License: classify(text), Text: text})
	}
	sortByName(comps)
	env, err := exec.Command("go", "env", "GOROOT", "GOVERSION").Output()
	if err != nil {
		return nil, "", fmt.Errorf("go env: %w", err)
	}
	goroot, goVersion, _ := strings.Cut(strings.TrimSpace(string(env)), "\n")
	if std {
		text := licenseText(goroot)
		comps = append([]Component{{Kind: "go", Name: "Go standard library", Version: goVersion, License: classify(text), Text: text}}, comps...)
	}
	return comps, goVersion, nil
}

// licenseText joins a folder's licence files (LICENSE*, LICENCE*, COPYING*).
func licenseText(dir string) string {
	if dir == "" {
		return ""
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return ""
	}
	var parts []string
	for _, e := range entries {
		n := strings.ToUpper(e.Name())
		if e.IsDir() || !(strings.HasPrefix(n, "LICENSE") || strings.HasPrefix(n, "LICENCE") || strings.HasPrefix(n, "COPYING")) {
			continue
		}
		if b, err := os.ReadFile(filepath.Join(dir, e.Name())); err == nil && len(bytes.TrimSpace(b)) > 0 {
			parts = append(parts, strings.TrimSpace(string(b)))
		}
	}
	return strings.Join(parts, "\n\n")
}

// classify names the licence a text is, by phrases each one carries.
func classify(text string) string {
	t := strings.Join(strings.Fields(text), " ")
	switch {
	case t == "":
		return "UNKNOWN"
	case strings.Contains(t, "Apache License") && strings.Contains(t, "Version 2.0"):
		return "Apache-2.0"
	case strings.Contains(t, "Mozilla Public License Version 2.0"):
		return "MPL-2.0"
	case strings.Contains(t, "Permission is hereby granted, free of charge"):
		return "MIT"
	case strings.Contains(t, "Permission to use, copy, modify, and") && strings.Contains(t, "distribute this software for any purpose with or without fee"):
		return "ISC"
	case strings.Contains(t, "Redistribution and use in source and binary forms"):
		if strings.Contains(t, "Neither the name") || strings.Contains(t, "names of its contributors") {
			return "BSD-3-Clause"
		}
		return "BSD-2-Clause"
	}
	return "see text"
}

func sortByName(c []Component) {
	sort.Slice(c, func(i, j int) bool { return c[i].Name < c[j].Name })
}

// ErrNoModules: the frontend's packages are not installed (npm ci).
var ErrNoModules = errors.New("the frontend's node_modules is missing: run make deps-npm")
