// Package mention turns the composer's @-mentions into text sent with the
// message: a file (or a line range, path:10-40), a folder's listing, an
// earlier session of the workspace (session:ID, its digest), or an MCP
// server's resource (mcp:<server>:<uri>, read by the caller's Resources). Files are read
// through the same tools the model uses (read_file, list_dir, glob),
// so the workspace boundary, ignore files, secret names and size caps hold
// exactly as for the model; a mention the boundary refuses fails the send.
package mention

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"gatehouse/internal/tools"
	"gatehouse/internal/tools/files"
	"gatehouse/internal/workspace"
)

// MaxTotal caps the text all mentions of one message add.
const MaxTotal = 200 << 10

func tool(ws *workspace.Workspace, name string) tools.Tool {
	for _, t := range files.All(ws) {
		if t.Spec().Name == name {
			return t
		}
	}
	panic("mention: no tool " + name)
}

func run(ctx context.Context, t tools.Tool, args any) (map[string]any, error) {
	b, _ := json.Marshal(args)
	res, err := t.Run(ctx, b)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	if err := json.Unmarshal(res.Output, &out); err != nil {
		return nil, err
	}
	if res.IsError {
		msg := "refused"
		if e, ok := out["error"].(map[string]any); ok {
			msg, _ = e["message"].(string)
		}
		return nil, fmt.Errorf("%s", msg)
	}
	return out, nil
}

// Candidates are the workspace's files and folders whose path matches
// query fuzzily (its characters in order), best first, at most max. The
// whole tree is searched (as glob would list it to the model: ignore files,
// the user's deny rules and the boundary hold), so a file however deep is
// found.
func Candidates(ctx context.Context, ws *workspace.Workspace, query string, max int) []string {
	return Walk(ctx, ws).Search(query, max)
}

// Index is the workspace's files and folders as Candidates searches them,
// walked once and searched as the user types. Search checks the user's
// deny rules again (they may have changed since the walk); the caller
// walks again when the tree changes.
type Index struct {
	ws    *workspace.Workspace
	paths []string // slash paths, folders ending in "/"
}

// Walk lists the workspace's files and folders for Search. A walk cut
// short (ctx ended) holds what it found until then.
func Walk(ctx context.Context, ws *workspace.Workspace) *Index {
	ix := &Index{ws: ws}
	_ = files.Paths(ctx, ws, func(rel string, dir bool) error {
		if dir {
			rel += "/"
		}
		ix.paths = append(ix.paths, rel)
		return nil
	})
	return ix
}

// Len is how many paths the index holds.
func (ix *Index) Len() int { return len(ix.paths) }

// Search returns the paths matching query, best first, at most max; only
// the best max are kept as it goes, and a path the user's policy denies
// now (itself or a folder above it) is left out.
func (ix *Index) Search(query string, max int) []string {
	if max <= 0 {
		return nil
	}
	q := strings.ToLower(query)
	denied := ix.ws.DenyNow()
	best := make([]scored, 0, max+1)
	for _, p := range ix.paths {
		s, ok := score(strings.ToLower(p), q)
		if !ok || len(best) == max && !better(scored{p, s}, best[max-1]) || ix.deniedNow(denied, p) {
			continue
		}
		i := sort.Search(len(best), func(i int) bool { return better(scored{p, s}, best[i]) })
		best = append(best, scored{})
		copy(best[i+1:], best[i:])
		best[i] = scored{p, s}
		if len(best) > max {
			best = best[:max]
		}
	}
	res := make([]string, len(best))
	for i, h := range best {
		res[i] = h.p
	}
	return res
}

// deniedNow says whether the policy denies reading p or a folder above it.
func (ix *Index) deniedNow(denied func(string, workspace.Access) string, p string) bool {
	p = strings.TrimSuffix(p, "/")
	for {
		if denied(filepath.Join(ix.ws.Root(), filepath.FromSlash(p)), workspace.Read) != "" {
			return true
		}
		i := strings.LastIndex(p, "/")
		if i < 0 {
			return false
		}
		p = p[:i]
	}
}

// scored is a path and its match score.
type scored struct {
	p string
	s int
}

// better orders matches: the lower score, then the path.
func better(a, b scored) bool {
	if a.s != b.s {
		return a.s < b.s
	}
	return a.p < b.p
}

// Loose is the lowest score of a match that is only a subsequence (the
// query's characters in order, with gaps): a prefix or a substring scores
// lower.
const Loose = 2000

// Match scores candidate (a path, a session's title) against query: lower
// is better; ok is false when it does not match.
func Match(candidate, query string) (int, bool) {
	return score(strings.ToLower(candidate), strings.ToLower(query))
}

// score is lower for a better match: a prefix, then a substring, then a
// subsequence (its gaps counted); ok is false when q is not in p in order.
func score(p, q string) (int, bool) {
	switch {
	case strings.HasPrefix(p, q):
		return len(p), true
	case strings.Contains(p, q):
		return 1000 + len(p), true
	}
	gaps, j := 0, 0
	for i := 0; i < len(p) && j < len(q); i++ {
		if p[i] == q[j] {
			j++
		} else if j > 0 {
			gaps++
		}
	}
	return Loose + gaps*10 + len(p), j == len(q)
}

var rangeSuffix = regexp.MustCompile(`^(.*):(\d+)-(\d+)$`)

// SessionPrefix starts a mention of an earlier session: session:ID.
const SessionPrefix = "session:"

// Sessions reads what a mention of session id attaches (its digest); nil:
// sessions cannot be mentioned.
type Sessions func(id string) (string, error)

// Attach reads every mention and returns the text to send after the
// message; an error names the mention that failed and why (outside the
// workspace, not found, over the cap).
func Attach(ctx context.Context, ws *workspace.Workspace, mentions []string, sessions Sessions) (string, error) {
	return AttachFrom(ctx, ws, mentions, Sources{Sessions: sessions})
}

// Resources reads what a mention of a server's resource attaches (the
// mention starts with ResourcePrefix); nil: resources cannot be mentioned.
type Resources func(ctx context.Context, mention string) (string, error)

// ResourcePrefix starts a mention of an MCP server's resource
// (mcp:<server>:<uri>, made by internal/mcp).
const ResourcePrefix = "mcp:"

// Sources are what mentions may name beside the workspace's files.
type Sources struct {
	Sessions  Sessions
	Resources Resources
}

// AttachFrom is Attach with every source: a resource's text counts toward
// MaxTotal as a file's does.
func AttachFrom(ctx context.Context, ws *workspace.Workspace, mentions []string, src Sources) (string, error) {
	sessions := src.Sessions
	if len(mentions) == 0 {
		return "", nil
	}
	var b strings.Builder
	b.WriteString("\n\nAttached by the user (@-mentions):\n")
	for _, m := range mentions {
		var part string
		var err error
		if id, ok := strings.CutPrefix(m, SessionPrefix); ok {
			part, err = session(sessions, id)
		} else if strings.HasPrefix(m, ResourcePrefix) {
			if src.Resources == nil {
				err = fmt.Errorf("MCP resources cannot be mentioned here")
			} else {
				part, err = src.Resources(ctx, m)
			}
		} else {
			part, err = one(ctx, ws, m)
		}
		if err != nil {
			return "", fmt.Errorf("@%s: %w", m, err)
		}
		b.WriteString(part)
		if b.Len() > MaxTotal {
			return "", fmt.Errorf("the attached files are over %d KiB together: mention fewer or a line range (@file:10-40)", MaxTotal>>10)
		}
	}
	return b.String(), nil
}

func session(sessions Sessions, id string) (string, error) {
	if sessions == nil {
		return "", fmt.Errorf("sessions cannot be mentioned here")
	}
	text, err := sessions(id)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("<session id=%q>\n%s</session>\n", id, text), nil
}

func one(ctx context.Context, ws *workspace.Workspace, m string) (string, error) {
	if strings.HasSuffix(m, "/") {
		out, err := run(ctx, tool(ws, "list_dir"), map[string]any{"path": strings.TrimSuffix(m, "/"), "depth": 2})
		if err != nil {
			return "", err
		}
		var names []string
		entries, _ := out["entries"].([]any)
		for _, e := range entries {
			if em, ok := e.(map[string]any); ok {
				p, _ := em["path"].(string)
				if em["type"] == "dir" {
					p += "/"
				}
				names = append(names, p)
			}
		}
		return fmt.Sprintf("<folder path=%q>\n%s\n</folder>\n", m, strings.Join(names, "\n")), nil
	}
	args := map[string]any{"path": m, "maxChars": 100000}
	attr := ""
	if r := rangeSuffix.FindStringSubmatch(m); r != nil {
		from, _ := strconv.Atoi(r[2])
		to, _ := strconv.Atoi(r[3])
		args = map[string]any{"path": r[1], "startLine": from, "endLine": to, "maxChars": 100000}
		attr = fmt.Sprintf(" lines=\"%d-%d\"", from, to)
		m = r[1]
	}
	out, err := run(ctx, tool(ws, "read_file"), args)
	if err != nil {
		return "", err
	}
	content, _ := out["content"].(string)
	if t, _ := out["truncated"].(bool); t {
		return "", fmt.Errorf("the file is too long to attach whole: mention a line range (@%s:1-200)", m)
	}
	return fmt.Sprintf("<file path=%q%s>\n%s\n</file>\n", m, attr, content), nil
}

// Refused says why the user's policy refuses a mention of query when it
// names, exactly, a file or folder of the workspace that the policy denies
// reading ("" otherwise): the picker leaves such a path out (as the
// model's walks do), so the composer says why instead of offering nothing.
// Nothing is read.
func Refused(ws *workspace.Workspace, query string) string {
	p := strings.TrimSuffix(query, "/")
	if r := rangeSuffix.FindStringSubmatch(p); r != nil {
		p = r[1]
	}
	if p == "" || strings.ContainsAny(p, "*?[") {
		return ""
	}
	abs, err := ws.ResolveForPlan(p, workspace.Read)
	if err != nil {
		return ""
	}
	if _, err := os.Stat(abs); err != nil {
		return ""
	}
	if why := ws.Denied(abs, workspace.Read); why != "" {
		return workspace.HiddenReason(why)
	}
	return ""
}
