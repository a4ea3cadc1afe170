package trust

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"gatehouse/internal/frontmatter"
	"gatehouse/internal/workspace"
)

// HooksFile is the workspace's own hooks file (KindHooks).
const HooksFile = ".gatehouse/hooks.json"

// readHooksReach adds to c the workspace's agent definitions that carry
// hooks (.gatehouse/agents/*.md with a hooks key: their hooks run for that
// agent's children, so they are the workspace's hooks too) and the scripts
// the commands of the hooks file and of those definitions name inside the
// workspace: every word of a command that, with $CLAUDE_PROJECT_DIR and
// $GATEHOUSE_PROJECT_DIR put in, is a file below folder
// (`$CLAUDE_PROJECT_DIR/.hooks/fmt.sh`, `python3 hooks/check.py`,
// `./lint`). A path-like word (one with a slash) naming nothing there yet
// is trusted as absent, so creating it asks again; a link, a FIFO or a
// file too large is refused with why.
func (c *Content) readHooksReach(folder string) {
	var cmds []string
	if b, ok := c.Data[HooksFile]; ok {
		cmds = HookCommands(b)
	}
	for rel, b := range agentHookFiles(folder) {
		c.Files = append(c.Files, rel)
		c.Data[rel] = b
		cmds = append(cmds, HookCommands(b)...)
	}
	for _, cmd := range cmds {
		for _, rel := range ScriptsNamed(cmd, folder) {
			c.addScript(folder, rel)
		}
	}
}

// agentHookFiles are the workspace's agent definitions with hooks, by
// workspace-relative path. A definition that could not load (a link, too
// large, front matter that does not read) is left out: its hooks never
// run, as it never loads.
func agentHookFiles(folder string) map[string][]byte {
	dir, err := workspace.NoLinks(folder, filepath.FromSlash(AgentsDir))
	if err != nil {
		return nil
	}
	ents, _ := os.ReadDir(dir)
	out := map[string][]byte{}
	for _, e := range ents {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".md") {
			continue
		}
		rel := AgentsDir + "/" + e.Name()
		b, trunc, err := workspace.ReadNoLinks(folder, filepath.FromSlash(rel), maxFileBytes)
		if err != nil || trunc {
			continue
		}
		if _, hooks, err := frontmatter.AgentHooks(b); err == nil && hooks != nil {
			out[rel] = b
		}
	}
	return out
}

// HookCommands are the command strings of a hooks file, in file order,
// or of an agent definition's hooks (what a shape it does not know holds
// is left out: the hooks package refuses such a file).
func HookCommands(b []byte) []string {
	if _, hooks, err := frontmatter.AgentHooks(b); err == nil && hooks != nil {
		b = hooks
	}
	var f struct {
		Hooks map[string][]struct {
			Hooks []struct {
				Command string `json:"command"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if json.Unmarshal(b, &f) != nil {
		return nil
	}
	var out []string
	for _, groups := range f.Hooks {
		for _, g := range groups {
			for _, h := range g.Hooks {
				if strings.TrimSpace(h.Command) != "" {
					out = append(out, h.Command)
				}
			}
		}
	}
	return out
}

// ScriptsNamed are the workspace-relative paths (slash-separated) that the
// words of the shell command cmd name below folder: files there now, and
// path-like words naming nothing yet. Words outside folder are not the
// workspace's and are left out.
func ScriptsNamed(cmd, folder string) []string {
	var out []string
	seen := map[string]bool{}
	for _, w := range shellWords(cmd) {
		cands := []string{w}
		if _, v, ok := strings.Cut(w, "="); ok && strings.HasPrefix(w, "-") {
			cands = append(cands, v) // --config=hooks/x.toml
		}
		for _, cand := range cands {
			rel, pathLike := workspaceRel(expandProject(cand, folder), folder)
			if rel == "" || seen[rel] {
				continue
			}
			if _, err := workspace.NoLinks(folder, filepath.FromSlash(rel)); errors.Is(err, fs.ErrNotExist) && !pathLike {
				continue // a program name, looked up on PATH
			}
			seen[rel] = true
			out = append(out, rel)
		}
	}
	return out
}

// addScript adds the workspace file rel, its absence, or why it is refused.
func (c *Content) addScript(folder, rel string) {
	if _, dup := c.Data[rel]; dup {
		return
	}
	if _, dup := c.Data[rel+absentSuffix]; dup {
		return
	}
	b, trunc, err := workspace.ReadNoLinks(folder, filepath.FromSlash(rel), maxFileBytes)
	var nr *workspace.NotRegularError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.Files = append(c.Files, rel+absentSuffix)
		c.Data[rel+absentSuffix] = nil
	case errors.As(err, &nr):
		c.refuse(rel, nr.Kind+": a hook's script is trusted only as a regular file, never through a link")
	case err != nil:
		c.refuse(rel, "unreadable: "+err.Error())
	case trunc:
		c.refuse(rel, fmt.Sprintf("larger than %d MiB: not loaded", maxFileBytes>>20))
	default:
		c.Files = append(c.Files, rel)
		c.Data[rel] = b
	}
}

// expandProject puts folder in for the project variables hooks name
// their scripts by.
func expandProject(w, folder string) string {
	for _, v := range []string{"CLAUDE_PROJECT_DIR", "GATEHOUSE_PROJECT_DIR"} {
		w = strings.ReplaceAll(w, "${"+v+"}", folder)
		w = strings.ReplaceAll(w, "$"+v, folder)
	}
	return w
}

// workspaceRel is w as a path below folder ("" when it is not one), and
// whether it looks like a path (has a slash).
func workspaceRel(w, folder string) (string, bool) {
	if w == "" || strings.ContainsAny(w, "$`*?[") {
		return "", false
	}
	pathLike := strings.Contains(w, "/")
	p := w
	if !filepath.IsAbs(p) {
		p = filepath.Join(folder, p)
	}
	r, err := filepath.Rel(folder, filepath.Clean(p))
	if err != nil || r == "." || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), pathLike
}

// shellWords splits a command line into words as sh would, near enough to
// find the paths it names: quotes and backslashes are honoured, and
// ; & | ( ) < > end a word.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	in := false
	flush := func() {
		if in {
			out = append(out, cur.String())
		}
		cur.Reset()
		in = false
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case ch == '\'':
			in = true
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				j = len(s) - i - 1
			}
			cur.WriteString(s[i+1 : i+1+j])
			i += j + 1
		case ch == '"':
			in = true
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				cur.WriteByte(s[i])
			}
		case ch == '\\' && i+1 < len(s):
			in = true
			i++
			cur.WriteByte(s[i])
		case strings.IndexByte(" \t\n;&|()<>", ch) >= 0:
			flush()
		default:
			in = true
			cur.WriteByte(ch)
		}
	}
	flush()
	return out
}
