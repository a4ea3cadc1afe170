// Package instructions reads what the model is told by files, where other
// agents keep them: the user's own AGENTS.md in Gatehouse's config folder
// (every workspace), the workspace root's AGENTS.md, and AGENTS.md files in
// subfolders, told when the model first reads or edits a file below their
// folder (the closest last, so it weighs most). At each level CLAUDE.md is
// read where there is no AGENTS.md, with its @path imports followed inside
// the workspace (MaxImportDepth deep, each capped; one outside is named,
// not read).
//
// Every file of the workspace is read through its boundary
// (workspace.ReadInside: a link out of it, a FIFO or a device is not read)
// and capped at MaxFileBytes; each one read is listed (Files) for the
// "what the model was told" view.
package instructions

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"gatehouse/internal/workspace"
)

// MaxFileBytes caps each file read.
const MaxFileBytes = 32 << 10

// MaxImportDepth bounds the chain of CLAUDE.md @imports followed.
const MaxImportDepth = 4

// maxImports bounds the imports followed from one file, all depths.
const maxImports = 20

// Names read at each level, in order: the first that exists is read.
var Names = []string{"AGENTS.md", "CLAUDE.md"}

// File is one file the model was told, for the "what the model was told"
// view.
type File struct {
	// Path is workspace-relative (slash-separated), or absolute for the
	// user's own.
	Path string `json:"path"`
	// Scope is "user", "workspace" (the root) or the subfolder it covers.
	Scope string `json:"scope"`
	Bytes int    `json:"bytes"`
	// Truncated: longer than MaxFileBytes; the rest was not read.
	Truncated bool `json:"truncated,omitempty"`
	// ImportedBy names the CLAUDE.md whose @path brought it in.
	ImportedBy string `json:"importedBy,omitempty"`
	// Skipped says why an @import named here was not followed.
	Skipped string `json:"skipped,omitempty"`
	// Because names the file (workspace-relative) the model read or
	// edited when a subfolder's file was told; "" for the system prompt's.
	Because string `json:"because,omitempty"`
}

// Set is one session's instructions: what went into the system prompt, and
// the subfolders' files told since.
type Set struct {
	root    string
	userDir string

	mu    sync.Mutex
	files []File
	seen  map[string]bool // folders (workspace-relative) looked at
	queue []string        // notes not yet taken
}

// New returns the instructions of workspace root; configDir is Gatehouse's
// config folder ("": no user-level file).
func New(root, configDir string) *Set {
	return &Set{root: root, userDir: configDir, seen: map[string]bool{".": true}}
}

// Prompt is the text for the system prompt: the user's AGENTS.md, then the
// workspace root's (or its CLAUDE.md).
func (s *Set) Prompt() string {
	var b strings.Builder
	if s.userDir != "" {
		// The user's own file, in Gatehouse's own (protected) folder: read
		// as a regular file, capped.
		p := filepath.Join(s.userDir, "AGENTS.md")
		data, trunc, err := workspace.ReadRegular(p, MaxFileBytes)
		if err == nil && len(data) > 0 {
			s.add(File{Path: p, Scope: "user", Bytes: len(data), Truncated: trunc})
			fmt.Fprintf(&b, "\n\n## Your user's instructions (%s, for every workspace)\n\n%s", p, capNote(data, trunc, "AGENTS.md"))
		}
	}
	if text, name := s.level(".", ""); text != "" {
		fmt.Fprintf(&b, "\n\n## Project instructions (%s)\n\n%s", name, text)
	}
	return b.String()
}

// Touched tells the set that the model read or edited the file rel
// (workspace-relative): the AGENTS.md (or CLAUDE.md) of each folder between
// the root and rel not told yet is queued, outermost first.
func (s *Set) Touched(rel string) {
	rel = path.Clean(filepath.ToSlash(rel))
	if rel == "." || strings.HasPrefix(rel, "../") || path.IsAbs(rel) {
		return
	}
	var dirs []string
	for d := path.Dir(rel); d != "."; d = path.Dir(d) {
		dirs = append(dirs, d)
	}
	slices.Reverse(dirs)
	for _, d := range dirs {
		s.mu.Lock()
		done := s.seen[d]
		s.seen[d] = true
		s.mu.Unlock()
		if done {
			continue
		}
		if text, name := s.level(d, rel); text != "" {
			note := fmt.Sprintf("[Instructions for the folder %s/ (%s), read because you worked on a file in it; they apply to its files and weigh more than those of the folders above:]\n\n%s", d, name, text)
			s.mu.Lock()
			s.queue = append(s.queue, note)
			s.mu.Unlock()
		}
	}
}

// Notes returns the queued subfolder instructions once each (a source of
// runtime notes: each reaches the model as a message before its next
// request).
func (s *Set) Notes() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	q := s.queue
	s.queue = nil
	return q
}

// Files lists every file read so far, in the order read.
func (s *Set) Files() []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.files)
}

func (s *Set) add(f File) {
	s.mu.Lock()
	s.files = append(s.files, f)
	s.mu.Unlock()
}

// level reads the instructions of folder dir (workspace-relative): its
// AGENTS.md, else its CLAUDE.md with its imports, because the model worked
// on the file because ("": the system prompt's). It returns the text and
// the file's path.
func (s *Set) level(dir, because string) (string, string) {
	scope := dir
	if dir == "." {
		scope = "workspace"
	}
	for _, n := range Names {
		rel := path.Join(dir, n)
		data, trunc, err := workspace.ReadInside(s.root, rel, MaxFileBytes)
		if errors.Is(err, fs.ErrNotExist) || err == nil && len(data) == 0 {
			continue
		}
		if err != nil {
			s.add(File{Path: rel, Scope: scope, Skipped: err.Error(), Because: because})
			return "", ""
		}
		s.add(File{Path: rel, Scope: scope, Bytes: len(data), Truncated: trunc, Because: because})
		text := capNote(data, trunc, n)
		if n == "CLAUDE.md" {
			budget := maxImports
			text += s.imports(rel, string(data), scope, because, 1, &budget)
		}
		return text, rel
	}
	return "", ""
}

// importRe finds @path references (Claude Code's import syntax): an @ at
// the start or after a space, then a path with no spaces.
var importRe = regexp.MustCompile(`(?m)(?:^|\s)@((?:\.{1,2}/|~/|/)?[\w.\-/]+)`)

// imports follows the @path imports of file (workspace-relative), inside
// the workspace only, depth levels deep.
func (s *Set) imports(file, text, scope, because string, depth int, budget *int) string {
	var b strings.Builder
	for _, m := range importRe.FindAllStringSubmatch(stripCode(text), -1) {
		ref := strings.TrimRight(m[1], ".")
		if !strings.Contains(ref, "/") && path.Ext(ref) == "" {
			continue // an @mention, not a path
		}
		skip := func(why string) {
			s.add(File{Path: ref, Scope: scope, ImportedBy: file, Skipped: why, Because: because})
			fmt.Fprintf(&b, "\n\n[@%s in %s was not imported: %s]", ref, file, why)
		}
		switch {
		case *budget <= 0:
			skip(fmt.Sprintf("more than %d imports", maxImports))
			continue
		case depth > MaxImportDepth:
			skip(fmt.Sprintf("imports go at most %d deep", MaxImportDepth))
			continue
		case strings.HasPrefix(ref, "~/") || path.IsAbs(ref):
			skip("it lies outside the workspace")
			continue
		}
		*budget--
		rel := path.Clean(path.Join(path.Dir(file), ref))
		if rel == ".." || strings.HasPrefix(rel, "../") {
			skip("it lies outside the workspace")
			continue
		}
		data, trunc, err := workspace.ReadInside(s.root, rel, MaxFileBytes)
		if err != nil {
			var we *workspace.Error
			if errors.As(err, &we) {
				skip(we.Reason)
			} else if errors.Is(err, fs.ErrNotExist) {
				skip("there is no such file")
			} else {
				skip(err.Error())
			}
			continue
		}
		s.add(File{Path: rel, Scope: scope, Bytes: len(data), Truncated: trunc, ImportedBy: file, Because: because})
		fmt.Fprintf(&b, "\n\n[Imported from %s by @%s in %s:]\n\n%s", rel, ref, file, capNote(data, trunc, rel))
		b.WriteString(s.imports(rel, string(data), scope, because, depth+1, budget))
	}
	return b.String()
}

// stripCode drops fenced code blocks and inline code spans: an @ in code
// is not an import.
func stripCode(text string) string {
	var out []string
	fenced := false
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fenced = !fenced
			continue
		}
		if !fenced {
			out = append(out, inlineCode.ReplaceAllString(l, ""))
		}
	}
	return strings.Join(out, "\n")
}

var inlineCode = regexp.MustCompile("`[^`]*`")

func capNote(data []byte, trunc bool, name string) string {
	if trunc {
		return string(data) + fmt.Sprintf("\n[%s cut here: it is longer than %d KiB]", name, MaxFileBytes>>10)
	}
	return string(data)
}
