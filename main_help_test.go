package main

import (
	"bytes"
	"flag"
	"gatehouse/internal/commands"
	"os"
	"strings"
	"testing"
)

// --help names every subcommand of the dispatch table, with its aliases,
// and every flag of the window; help, -h and --help print the same.
func TestHelpNamesEverySubcommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"--help"}, &out, &errb); code != 0 {
		t.Fatalf("--help: exit %d, stderr %q", code, errb.String())
	}
	help := out.String()
	cmds := commands.List(version)
	if len(cmds) < 4 {
		t.Fatalf("the table has %d subcommands; exec, tool, version and help at least", len(cmds))
	}
	for _, c := range cmds {
		for _, n := range c.Names {
			if !strings.Contains(help, n) {
				t.Errorf("--help does not name %q:\n%s", n, help)
			}
		}
		if c.Summary == "" || !strings.Contains(help, c.Summary) {
			t.Errorf("--help lacks the summary of %q", c.Names[0])
		}
	}
	for _, want := range []string{"exec", "tool", "version", "help"} {
		if _, ok := commands.Find(want, version); !ok {
			t.Errorf("%q is not dispatched", want)
		}
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	commands.DefineWindowFlags(fs)
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(help, "-"+f.Name) {
			t.Errorf("--help does not list the flag -%s", f.Name)
		}
	})
	for _, alias := range []string{"help", "-h", "-help"} {
		var o bytes.Buffer
		if code := run([]string{alias}, &o, &errb); code != 0 || o.String() != help {
			t.Errorf("%s: exit %d, output differs from --help:\n%s", alias, code, o.String())
		}
	}
}

// Each headless subcommand answers --help with its own usage, exit 0.
func TestSubcommandHelp(t *testing.T) {
	for _, name := range []string{"exec", "tool"} {
		var out, errb bytes.Buffer
		if code := run([]string{name, "--help"}, &out, &errb); code != 0 || !strings.Contains(out.String()+errb.String(), "usage: gatehouse "+name) {
			t.Errorf("%s --help: exit %d, output %q %q", name, code, out.String(), errb.String())
		}
	}
}

// A word that is no subcommand is refused instead of opening the window.
func TestUnknownSubcommand(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"exce", "--workspace", "."}, &out, &errb); code != 2 || !strings.Contains(errb.String(), `unknown command "exce"`) {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
}

// The version subcommand and its flag spellings print the same line.
func TestVersionSpellings(t *testing.T) {
	for _, w := range []string{"version", "--version", "-version"} {
		var out, errb bytes.Buffer
		if code := run([]string{w}, &out, &errb); code != 0 || out.String() != "gatehouse "+version+"\n" {
			t.Errorf("%s: exit %d, %q", w, code, out.String())
		}
	}
}

// The man page the package installs documents every subcommand and flag.
func TestManPageNamesEverySubcommand(t *testing.T) {
	b, err := os.ReadFile("build/package/gatehouse.1")
	if err != nil {
		t.Fatal(err)
	}
	man := string(b)
	for _, c := range commands.List(version) {
		if !strings.Contains(man, "\n.B "+c.Names[0]+"\n") {
			t.Errorf("the man page has no .B %s entry under COMMANDS", c.Names[0])
		}
	}
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	commands.DefineWindowFlags(fs)
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(man, `\-\-`+strings.ReplaceAll(f.Name, "-", `\-`)) {
			t.Errorf("the man page does not document --%s", f.Name)
		}
	})
}
