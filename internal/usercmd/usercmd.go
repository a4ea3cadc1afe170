// Package usercmd loads the user's own slash commands: Markdown files in
// the commands folder of Gatehouse's config folder, each becoming /name in
// the composer. A command's text is sent as the user's message, with
// $ARGUMENTS replaced by what follows /name.
//
// File format: an optional front matter block ("---", then lines such as
// "description: Review a change", then "---"), then the prompt. Without
// one, the description is the prompt's first line.
package usercmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// MaxBytes caps one command file.
const MaxBytes = 64 << 10

// Builtins are the composer's own commands; a file cannot take their names.
var Builtins = []Command{
	{Name: "compact", Description: "Replace older turns by a summary in what the model is sent", Source: "built-in"},
	{Name: "plan", Description: "Switch to plan mode: the agent only reads, then proposes a plan", Source: "built-in"},
	{Name: "undo", Description: "Review and undo the last turn's changes", Source: "built-in"},
	{Name: "clear", Description: "Start a new session", Source: "built-in"},
}

// Command is one slash command.
type Command struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Source is "built-in" or the file the command came from.
	Source string `json:"source"`
	// Body is the prompt ("" for a built-in).
	Body string `json:"-"`
}

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// Load reads the commands of dir, sorted by name. A missing folder holds
// none; a file that cannot be one (bad name, too big, not a regular file,
// a built-in's name) is left out and reported in the errors.
func Load(dir string) ([]Command, []error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []error{err}
	}
	var out []Command
	var errs []error
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		c, err := loadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, errs
}

func loadFile(path string) (Command, error) {
	name, err := nameOf(path)
	if err != nil {
		return Command{}, err
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return Command{}, err
	}
	if !fi.Mode().IsRegular() {
		return Command{}, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return Command{}, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxBytes+1))
	if err != nil {
		return Command{}, err
	}
	return fromBytes(name, path, b)
}

// nameOf is the command a file at path defines: its base name without .md,
// unless that is no command's name or a built-in's.
func nameOf(path string) (string, error) {
	name := strings.TrimSuffix(filepath.Base(path), ".md")
	if !validName.MatchString(name) {
		return "", fmt.Errorf("%s: a command's name is lower-case letters, digits, - and _", path)
	}
	for _, b := range Builtins {
		if b.Name == name {
			return "", fmt.Errorf("%s: /%s is a built-in command", path, name)
		}
	}
	return name, nil
}

func fromBytes(name, source string, b []byte) (Command, error) {
	if len(b) > MaxBytes {
		return Command{}, fmt.Errorf("%s: over %d KiB", source, MaxBytes>>10)
	}
	desc, body := parse(string(b))
	return Command{Name: name, Description: desc, Source: source, Body: body}, nil
}

// parse splits a file into its description and its prompt.
func parse(text string) (desc, body string) {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		if head, after, ok := strings.Cut(rest, "\n---\n"); ok {
			for _, l := range strings.Split(head, "\n") {
				if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "description" {
					desc = strings.Trim(strings.TrimSpace(v), `"'`)
				}
			}
			text = after
		}
	}
	body = strings.TrimSpace(text)
	if desc == "" {
		first, _, _ := strings.Cut(body, "\n")
		desc = strings.TrimSpace(strings.TrimLeft(first, "# "))
	}
	if len(desc) > 200 {
		desc = desc[:200]
	}
	return desc, body
}

// Expand is the message the command sends for args: $ARGUMENTS replaced by
// them, or, when the prompt does not use $ARGUMENTS, them added after it.
func (c Command) Expand(args string) string {
	args = strings.TrimSpace(args)
	if strings.Contains(c.Body, "$ARGUMENTS") {
		return strings.ReplaceAll(c.Body, "$ARGUMENTS", args)
	}
	if args == "" {
		return c.Body
	}
	return c.Body + "\n\n" + args
}

// Find returns the command named name of cmds.
func Find(cmds []Command, name string) (Command, bool) {
	for _, c := range cmds {
		if c.Name == name {
			return c, true
		}
	}
	return Command{}, false
}
