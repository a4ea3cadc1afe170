package trust

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// maxIncludeDepth bounds include chains (git's own limit is 10).
const maxIncludeDepth = 10

// absentSuffix marks, in Files, an include target that does not exist:
// its absence is part of what is trusted, so creating it takes trust back.
const absentSuffix = " (does not exist yet)"

// readGitReach adds to c what the repository's .git/config pulls in (see
// KindGit): every file it includes (include.path and every includeIf's
// path, whatever the condition, followed through links and nested
// includes) and the folder core.hooksPath names. Paths outside folder are
// absolute, inside it relative. A target that reaches into the working
// tree (outside .git) gets a warning.
func (c *Content) readGitReach(folder string) {
	b, ok := c.Data[".git/config"]
	if !ok {
		return
	}
	seen := map[string]bool{}
	var walk func(file string, data []byte, depth int)
	walk = func(file string, data []byte, depth int) {
		for _, kv := range parseGitConfig(data) {
			switch {
			case kv.key == "path" && (kv.section == "include" || kv.section == "includeif"):
				p := gitPath(kv.value, filepath.Dir(file))
				if p == "" || seen[p] || depth >= maxIncludeDepth {
					continue
				}
				seen[p] = true
				if next, ok := c.addOutside(folder, p, true); ok {
					walk(p, next, depth+1)
				}
			case kv.key == "hookspath" && kv.section == "core":
				p := gitPath(kv.value, folder)
				if p != "" && !seen[p] {
					seen[p] = true
					c.addOutsideTree(folder, p)
				}
			}
		}
	}
	walk(filepath.Join(folder, ".git", "config"), b, 0)
}

// gitPath resolves a path value as git does: ~/ is the home folder, a
// relative path is relative to base.
func gitPath(v, base string) string {
	if v == "" {
		return ""
	}
	if rest, ok := strings.CutPrefix(v, "~/"); ok {
		home, err := os.UserHomeDir()
		if err != nil {
			return ""
		}
		v = filepath.Join(home, rest)
	}
	if !filepath.IsAbs(v) {
		v = filepath.Join(base, v)
	}
	return filepath.Clean(v)
}

// shown is how p appears in Files: relative to folder when inside it.
func shown(folder, p string) string {
	if r, err := filepath.Rel(folder, p); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(r)
	}
	return p
}

// inTree reports whether p (links resolved) lies in folder's working tree
// but not in its .git.
func inTree(folder, p string) bool {
	if real, err := filepath.EvalSymlinks(p); err == nil {
		p = real
	} else if real, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		p = filepath.Join(real, filepath.Base(p))
	}
	root := folder
	if real, err := filepath.EvalSymlinks(folder); err == nil {
		root = real
	}
	r, err := filepath.Rel(root, p)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return false
	}
	r = filepath.ToSlash(r)
	return r != ".git" && !strings.HasPrefix(r, ".git/")
}

func (c *Content) warnTree(folder, p, what string) {
	if inTree(folder, p) {
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s %s is in the working tree: a command or the agent can change it, and that takes trust back", what, shown(folder, p)))
	}
}

// addOutside adds the file p (links followed), or its absence, and
// returns its bytes when it was read.
func (c *Content) addOutside(folder, p string, include bool) ([]byte, bool) {
	name := shown(folder, p)
	if _, dup := c.Data[name]; dup {
		return nil, false
	}
	if include {
		c.warnTree(folder, p, "the included file")
	}
	fi, err := os.Stat(p)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.Files = append(c.Files, name+absentSuffix)
		c.Data[name+absentSuffix] = nil
		return nil, false
	case err != nil:
		c.refuse(name, "unreadable: "+err.Error())
		return nil, false
	case !fi.Mode().IsRegular():
		c.refuse(name, "not a regular file: only regular files are trusted")
		return nil, false
	case fi.Size() > maxFileBytes:
		c.refuse(name, fmt.Sprintf("larger than %d MiB: not loaded", maxFileBytes>>20))
		return nil, false
	}
	b, err := os.ReadFile(p)
	if err != nil {
		c.refuse(name, "unreadable: "+err.Error())
		return nil, false
	}
	c.Files = append(c.Files, name)
	c.Data[name] = b
	return b, true
}

// addOutsideTree adds every file of the hooks folder dir (links
// followed), or its absence.
func (c *Content) addOutsideTree(folder, dir string) {
	c.warnTree(folder, dir, "the hooks folder")
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() {
		c.addOutside(folder, dir, false)
		return
	}
	es, err := os.ReadDir(dir)
	if err != nil {
		c.refuse(shown(folder, dir), "unreadable: "+err.Error())
		return
	}
	if len(es) == 0 {
		// An empty folder is trusted as empty: a hook added later takes trust back.
		c.Files = append(c.Files, shown(folder, dir)+"/ (empty)")
		c.Data[shown(folder, dir)+"/ (empty)"] = nil
	}
	for _, e := range es {
		c.addOutside(folder, filepath.Join(dir, e.Name()), false)
	}
}

// configKV is one key of a git config file: its section (lower case, no
// subsection), key (lower case) and value (unquoted).
type configKV struct{ section, key, value string }

// parseGitConfig reads the keys of a git config file: [section] and
// [section "sub"] headers, `key = value` lines with quotes, escapes,
// comments and continuation lines. Malformed lines are skipped (git
// would refuse the file, and run nothing).
func parseGitConfig(b []byte) []configKV {
	var out []configKV
	section := ""
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		l := strings.TrimSpace(lines[i])
		if l == "" || l[0] == '#' || l[0] == ';' {
			continue
		}
		if l[0] == '[' {
			end := strings.IndexByte(l, ']')
			if end < 0 {
				continue
			}
			h := strings.TrimSpace(l[1:end])
			name, _, _ := strings.Cut(h, " ")
			name, _, _ = strings.Cut(name, "\"")
			if dot := strings.IndexByte(name, '.'); dot >= 0 { // old [section.sub]
				name = name[:dot]
			}
			section = strings.ToLower(strings.TrimSpace(name))
			l = strings.TrimSpace(l[end+1:])
			if l == "" {
				continue
			}
		}
		key, raw, hasValue := strings.Cut(l, "=")
		key = strings.ToLower(strings.TrimSpace(key))
		if !hasValue {
			continue
		}
		for strings.HasSuffix(raw, "\\") && !strings.HasSuffix(raw, "\\\\") && i+1 < len(lines) {
			i++
			raw = raw[:len(raw)-1] + lines[i]
		}
		out = append(out, configKV{section, key, unquote(raw)})
	}
	return out
}

// unquote is a config value as git reads it: surrounding space trimmed,
// quotes removed, \" \\ \n \t unescaped, a comment outside quotes cut.
func unquote(raw string) string {
	var sb strings.Builder
	quoted := false
	for i := 0; i < len(raw); i++ {
		ch := raw[i]
		switch {
		case ch == '"':
			quoted = !quoted
		case ch == '\\' && i+1 < len(raw):
			i++
			switch raw[i] {
			case 'n':
				sb.WriteByte('\n')
			case 't':
				sb.WriteByte('\t')
			default:
				sb.WriteByte(raw[i])
			}
		case (ch == '#' || ch == ';') && !quoted:
			return strings.TrimSpace(sb.String())
		default:
			sb.WriteByte(ch)
		}
	}
	return strings.TrimSpace(sb.String())
}

// sortContent puts Files and Refused in order.
func (c *Content) sortContent() {
	sort.Strings(c.Files)
	sort.Slice(c.Refused, func(i, j int) bool { return c.Refused[i].Path < c.Refused[j].Path })
}
