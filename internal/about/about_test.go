package about

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The list for the real app: the modules its binary links and the npm
// packages its page ships, each with a licence name and text.
func TestCollectNamesWhatTheAppBundles(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	frontend := filepath.Join(repo, "frontend")
	if _, err := os.Stat(filepath.Join(frontend, "node_modules")); err != nil {
		t.Skip("frontend/node_modules is missing: make deps-npm installs it")
	}
	l, _, err := Collect(Options{Version: "1.2.3", Dir: repo, Tags: "webkit2_41", Frontend: frontend})
	if err != nil {
		t.Fatal(err)
	}
	if l.Version != "1.2.3" || !strings.HasPrefix(l.Go, "go1.") {
		t.Errorf("version %q, go %q", l.Version, l.Go)
	}
	byName := map[string]Component{}
	for _, c := range l.Components {
		byName[c.Kind+" "+c.Name] = c
	}
	for _, want := range []string{
		"go github.com/openai/openai-go/v3", "go github.com/wailsapp/wails/v2", "go github.com/fsnotify/fsnotify",
		"go Go standard library", "npm preact", "npm marked",
	} {
		c, ok := byName[want]
		if !ok {
			t.Errorf("%s is not listed", want)
			continue
		}
		if c.Version == "" || c.License == "" || c.License == "UNKNOWN" || len(c.Text) < 200 {
			t.Errorf("%s: version %q licence %q, %d bytes of text", want, c.Version, c.License, len(c.Text))
		}
	}
	if c := byName["go github.com/openai/openai-go/v3"]; c.License != "Apache-2.0" {
		t.Errorf("openai-go: licence %q, want Apache-2.0", c.License)
	}
	// Dev-only packages and peers the page does not ship are not listed.
	for _, not := range []string{"npm vite", "npm vitest", "npm typescript", "npm react", "npm react-dom", "go gatehouse"} {
		if _, ok := byName[not]; ok {
			t.Errorf("%s is listed but is not bundled", not)
		}
	}
}

// A lock file with a production package (with a nested dependency and a
// peer), a dev one and an optional one for another platform.
func TestNPMPackagesWalkProductionDependencies(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package-lock.json", `{"lockfileVersion": 3, "packages": {
		"": {"name": "x", "dependencies": {"app-lib": "1"}, "devDependencies": {"tool": "1"}},
		"node_modules/app-lib": {"version": "1.0.0", "dependencies": {"helper": "2"}, "peerDependencies": {"host": "1"}, "optionalDependencies": {"native-other-os": "1"}},
		"node_modules/app-lib/node_modules/helper": {"version": "2.0.0"},
		"node_modules/helper": {"version": "1.0.0", "dev": true},
		"node_modules/host": {"version": "1.0.0", "dev": true},
		"node_modules/native-other-os": {"version": "1.0.0", "optional": true},
		"node_modules/tool": {"version": "1.0.0", "dev": true}
	}}`)
	write("node_modules/app-lib/package.json", `{"name": "app-lib", "version": "1.0.0", "license": "MIT"}`)
	write("node_modules/app-lib/LICENSE", "Permission is hereby granted, free of charge, to any person")
	write("node_modules/app-lib/node_modules/helper/package.json", `{"name": "helper", "version": "2.0.0", "license": {"type": "ISC"}}`)
	write("node_modules/app-lib/node_modules/helper/LICENCE.md", "ISC licence text")
	write("node_modules/helper/package.json", `{"name": "helper", "version": "1.0.0"}`)
	write("node_modules/tool/package.json", `{"name": "tool", "version": "1.0.0"}`)
	got, err := npmPackages(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range got {
		names = append(names, c.Name+"@"+c.Version+" "+c.License+" "+c.Text)
	}
	want := []string{
		"app-lib@1.0.0 MIT Permission is hereby granted, free of charge, to any person",
		"helper@2.0.0 ISC ISC licence text",
	}
	if strings.Join(names, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(names, "\n"), strings.Join(want, "\n"))
	}
	// A production package that is not installed is an error, not a gap.
	if err := os.RemoveAll(filepath.Join(dir, "node_modules", "app-lib", "node_modules")); err != nil {
		t.Fatal(err)
	}
	if _, err := npmPackages(dir); err == nil || !strings.Contains(err.Error(), "helper is not installed") {
		t.Fatalf("err = %v", err)
	}
}

func TestClassify(t *testing.T) {
	for text, want := range map[string]string{
		"Apache License\n Version 2.0, January 2004":                                                        "Apache-2.0",
		"Permission is hereby granted, free of charge, to any person obtaining":                             "MIT",
		"Redistribution and use in source and binary forms ... Neither the name of":                         "BSD-3-Clause",
		"Redistribution and use in source and binary forms, with or without":                                "BSD-2-Clause",
		"Permission to use, copy, modify, and distribute this software for any purpose with or without fee": "ISC",
		"":                                "UNKNOWN",
		"All rights reserved to someone.": "see text",
	} {
		if got := classify(text); got != want {
			t.Errorf("classify(%q) = %q, want %q", text, got, want)
		}
	}
}
