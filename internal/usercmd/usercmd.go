// Package usercmd loads the user's own slash commands: Markdown files in
// the commands folder of Gatehouse's config folder, each becoming /name in
// the composer (through the "/" registry, package slash). A command's text is sent as the user's message, with
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

	"gatehouse/internal/slash"
)

// MaxBytes caps one command file.
const MaxBytes = 64 << 10

// Command is one slash command.
type Command struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	// Source is the file the command came from.
	Source string `json:"source"`
	// Body is the prompt.
	Body string `json:"-"`
}

var validName = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,63}$`)

// Load reads the commands of dir, sorted by name. A missing folder holds
// none; a file that cannot be one (bad name, too big, not a regular file,
// a built-in's name) is left out and reported in the errors. A file
// named like a built-in loads; the "/" registry lists it as shadowed.
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
// unless that is no command's name.
func nameOf(path string) (string, error) {
	name := strings.TrimSuffix(filepath.Base(path), ".md")
	if !validName.MatchString(name) {
		return "", fmt.Errorf("%s: a command's name is lower-case letters, digits, - and _", path)
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

// Entry is the command as a "/" entry of the registry.
func (c Command) Entry() slash.Command {
	return slash.Command{Name: c.Name, Description: c.Description, Source: c.Source,
		Expand: func(args string) (string, error) { return c.Expand(args), nil }}
}

// Entries are cmds as "/" entries.
func Entries(cmds []Command) []slash.Command {
	out := make([]slash.Command, len(cmds))
	for i, c := range cmds {
		out[i] = c.Entry()
	}
	return out
}
