package policy

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/sandbox"
	"gatehouse/internal/trust"
)

// Where says which files make the policy of one workspace.
type Where struct {
	// ConfigDir is Gatehouse's config folder (the user's files).
	ConfigDir string
	// Workspace is the workspace root ("": no workspace, the user's file
	// only).
	Workspace string
	// Trust is the store that says whether the workspace's own file may be
	// read (nil: it never is).
	Trust *trust.Store
}

// UserFile is the user's policy file.
func (w Where) UserFile() string { return filepath.Join(w.ConfigDir, "policy.toml") }

// WorkspaceFile is the user's policy file for the workspace, keyed by its
// real path ("" without a workspace).
func (w Where) WorkspaceFile() string {
	if w.Workspace == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(realPath(w.Workspace)))
	return filepath.Join(w.ConfigDir, "policy.d", hex.EncodeToString(sum[:8])+".toml")
}

// ProjectFile is the workspace's own file ("" without a workspace).
func (w Where) ProjectFile() string {
	if w.Workspace == "" {
		return ""
	}
	return filepath.Join(realPath(w.Workspace), filepath.FromSlash(trust.Paths[trust.KindPolicy][0]))
}

// workspaces are the folders whose user files (policy.d) hold in w's
// workspace: its own, and for a linked worktree (a worktree session) its
// main checkout's too, so a deny made for the repository holds in every
// worktree of it.
func (w Where) workspaces() []string {
	root := realPath(w.Workspace)
	out := []string{root}
	if main, ok := sandbox.MainCheckout(root); ok && realPath(main) != root {
		out = append(out, realPath(main))
	}
	return out
}

func realPath(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		return r
	}
	return abs
}

// Policy is the standing policy in force: the rules of every file that
// loaded, and an error for every file that did not (which loaded nothing).
type Policy struct {
	// Rules are the files' rules, in layer order.
	Rules  []approval.StandingRule `json:"rules"`
	Errors []*Error                `json:"errors,omitempty"`
	// Untrusted is the workspace's own file when it exists and the user has
	// not trusted its content: not read.
	Untrusted string `json:"untrusted,omitempty"`
	// UntrustedText and UntrustedHash are that file's content as read, to
	// show before trust, and what TrustProject must be given to trust it.
	UntrustedText string `json:"untrustedText,omitempty"`
	UntrustedHash string `json:"untrustedHash,omitempty"`
}

// Load reads every layer of w now.
func Load(w Where) Policy {
	var p Policy
	add := func(file, layer string, check func(fileShape, []approval.StandingRule) error) {
		shape, rules, err := readFile(file, layer)
		if err == nil && check != nil {
			err = check(shape, rules)
		}
		if err != nil {
			p.Errors = append(p.Errors, asError(file, err))
			return
		}
		p.Rules = append(p.Rules, rules...)
	}
	add(w.UserFile(), LayerUser, nil)
	if w.Workspace == "" {
		return p
	}
	root := realPath(w.Workspace)
	for _, ws := range w.workspaces() {
		wf := Where{ConfigDir: w.ConfigDir, Workspace: ws}.WorkspaceFile()
		add(wf, LayerWorkspace, func(s fileShape, rules []approval.StandingRule) error {
			if len(rules) > 0 && s.Workspace != ws {
				return &Error{File: wf, Msg: fmt.Sprintf("is for workspace %q, not %q: not loaded", s.Workspace, ws)}
			}
			return nil
		})
	}
	p.loadProject(w, root)
	return p
}

// loadProject reads the workspace's own file when the user trusts its
// content; an allow rule in it refuses it whole.
func (p *Policy) loadProject(w Where, root string) {
	c, err := trust.Read(root, trust.KindPolicy)
	file := w.ProjectFile()
	if err != nil {
		p.Errors = append(p.Errors, &Error{File: file, Msg: err.Error()})
		return
	}
	for _, r := range c.Refused {
		p.Errors = append(p.Errors, &Error{File: filepath.Join(root, r.Path), Msg: r.Reason})
	}
	if c.Empty() {
		return
	}
	ok := false
	if w.Trust != nil {
		ok, err = w.Trust.Trusted(root, trust.KindPolicy, c)
		if err != nil {
			p.Errors = append(p.Errors, &Error{File: file, Msg: err.Error()})
			return
		}
	}
	if !ok {
		p.Untrusted, p.UntrustedHash = file, c.Hash
		p.UntrustedText = string(c.Data[c.Files[0]])
		return
	}
	_, rules, err := parse(file, LayerProject, string(c.Data[c.Files[0]]))
	if err != nil {
		p.Errors = append(p.Errors, asError(file, err))
		return
	}
	if i := slices.IndexFunc(rules, func(r approval.StandingRule) bool { return r.Decision == approval.VerdictAllow }); i >= 0 {
		p.Errors = append(p.Errors, &Error{File: file, Line: rules[i].Line,
			Msg: fmt.Sprintf("rule %s allows: a workspace's own policy can only tighten (ask, deny), so this file is not loaded; allow from the dialog or `gatehouse policy add` instead", rules[i].ID)})
		return
	}
	p.Rules = append(p.Rules, rules...)
}

func asError(file string, err error) *Error {
	if e, ok := err.(*Error); ok {
		return e
	}
	return &Error{File: file, Msg: err.Error()}
}

// Source is the policy of one workspace as the gate reads it on every
// call: reloaded when a file changes (the window, `gatehouse policy add`
// or an editor), checked at most every interval.
type Source struct {
	w        Where
	interval time.Duration

	mu      sync.Mutex
	stamp   string
	checked time.Time
	cur     Policy
}

// NewSource returns the policy of w, loaded now.
func NewSource(w Where) *Source {
	s := &Source{w: w, interval: 0}
	s.refresh(true)
	return s
}

// Policy is the policy in force now.
func (s *Source) Policy() Policy {
	s.refresh(false)
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cur
}

// Rules are the rules in force now (approval.Config.Standing).
func (s *Source) Rules() []approval.StandingRule { return s.Policy().Rules }

func (s *Source) refresh(force bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !force && time.Since(s.checked) < s.interval {
		return
	}
	s.checked = time.Now()
	st := s.stampNow()
	if !force && st == s.stamp {
		return
	}
	s.stamp, s.cur = st, Load(s.w)
}

// stampNow sums up the files' sizes and times, and the trust store's.
func (s *Source) stampNow() string {
	files := []string{s.w.UserFile(), s.w.ProjectFile(), filepath.Join(s.w.ConfigDir, trust.File)}
	if s.w.Workspace != "" {
		for _, ws := range s.w.workspaces() {
			files = append(files, Where{ConfigDir: s.w.ConfigDir, Workspace: ws}.WorkspaceFile())
		}
	}
	out := ""
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			out += fmt.Sprintf("%s:%d:%d;", f, fi.Size(), fi.ModTime().UnixNano())
		} else {
			out += f + ":-;"
		}
	}
	return out
}

// TrustProject trusts the workspace's own policy file of w with the
// content the user was shown (hash, Policy.UntrustedHash); a file changed
// since is refused, and asked again.
func TrustProject(w Where, hash string) error {
	if w.Workspace == "" || w.Trust == nil {
		return errors.New("policy: no workspace, or no trust store")
	}
	err := w.Trust.TrustShown(realPath(w.Workspace), trust.KindPolicy, hash)
	if errors.Is(err, trust.ErrChanged) {
		return fmt.Errorf("policy: %s changed since it was shown (or is gone); read it again before trusting it", w.ProjectFile())
	}
	return err
}
