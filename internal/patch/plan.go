package patch

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gatehouse/internal/workspace"
)

// Resolver is the boundary the planner reads and writes through;
// *workspace.Workspace implements it.
type Resolver interface {
	Resolve(path string, access workspace.Access) (string, error)
}

// Selection chooses part of a patch, as the approval dialog offers it. An
// operation is applied whole when one of its paths is in Files, and with
// only the chosen chunks when one of its hunk ids ("path#n", n counting its
// "@@" chunks from 1) is in Hunks. A nil Selection selects everything.
type Selection struct {
	Files []string `json:"files,omitempty"`
	Hunks []string `json:"hunks,omitempty"`
}

// Absent is the hash recorded for a file that did not exist when planned.
const Absent = "absent"

// HunkID returns the id of the n-th (from 1) chunk of the operation on path.
func HunkID(path string, n int) string { return path + "#" + strconv.Itoa(n) }

// Plan is the outcome of planning: what each operation changes, the hashes
// of the files read, and the final state of each file touched.
type Plan struct {
	Changes []FileChange
	hashes  map[string]string
	hashed  sync.Once
	files   []*file                // in the order first touched
	names   map[string]string      // resolved path -> path as first given
	given   map[string]string      // every path as given -> its resolved path
	stats   map[string]fs.FileInfo // resolved path -> its stat when read; nil: absent
	// failAt, when > 0, makes the failAt-th rename of Apply fail (tests).
	failAt int
}

// FileChange is what one operation does, as the preview shows it.
type FileChange struct {
	Path         string `json:"path"`
	Operation    string `json:"operation"` // add, update, delete, move
	MovedFrom    string `json:"movedFrom,omitempty"`
	LinesAdded   int    `json:"linesAdded"`
	LinesRemoved int    `json:"linesRemoved"`
	Diff         string `json:"diff"`
	Hunks        []Hunk `json:"hunks,omitempty"`
	OldContent   string `json:"oldContent"`
	NewContent   string `json:"newContent"`
	// Replaces: the operation writes a whole new content over a file that
	// exists at Path (Add File or write_file onto an existing file, Move to
	// onto an existing one). Diff and OldContent are against the replaced
	// file, except for a move: its Diff is the moved file's edit, and
	// ReplacedDiff goes from what the destination held to its new content.
	Replaces     bool   `json:"replaces,omitempty"`
	ReplacedDiff string `json:"replacedDiff,omitempty"`
}

// Hunk is one "@@" chunk of an update, located in the old and new content
// (1-based lines).
type Hunk struct {
	ID       string `json:"id"`
	OldStart int    `json:"oldStart"`
	OldLines int    `json:"oldLines"`
	NewStart int    `json:"newStart"`
	NewLines int    `json:"newLines"`
	Selected bool   `json:"selected"`
}

// FilesChanged returns how many files the plan writes or deletes.
func (p *Plan) FilesChanged() int {
	n := 0
	for _, f := range p.files {
		if f.changed() {
			n++
		}
	}
	return n
}

// file is the planned state of one resolved path.
type file struct {
	abs        string
	origExists bool
	orig       string
	origMode   fs.FileMode
	exists     bool
	content    string
	mode       fs.FileMode
}

func (f *file) changed() bool {
	return f.exists != f.origExists || f.exists && f.content != f.orig
}

type planner struct {
	r     Resolver
	plan  *Plan
	files map[string]*file
	cache map[string]*loaded // by path as given; see prefetch
	ahead map[*Op]*planned   // updates worked out by prefetch
}

const resolveWrite = workspace.Write

func newPlanner(r Resolver) *planner {
	return &planner{r: r, plan: &Plan{names: map[string]string{}, given: map[string]string{}, stats: map[string]fs.FileInfo{}}, files: map[string]*file{}}
}

// load returns the planned state of the file at path (as the model gave
// it), reading it from disk (or the prefetch cache) the first time.
func (pl *planner) load(path string) (*file, error) {
	var l loaded
	if c, ok := pl.cache[path]; ok {
		l = *c
	} else {
		l = pl.read(path)
	}
	if l.err != nil {
		return nil, l.err
	}
	pl.plan.given[path] = l.abs
	if f, ok := pl.files[l.abs]; ok {
		return f, nil
	}
	f := &file{abs: l.abs, mode: 0o644}
	if l.fi == nil {
	} else {
		f.origExists, f.orig, f.origMode = true, l.data, l.fi.Mode().Perm()
		f.exists, f.content, f.mode = true, l.data, l.fi.Mode().Perm()
		pl.plan.stats[l.abs] = l.fi
	}
	pl.files[l.abs] = f
	pl.plan.files = append(pl.plan.files, f)
	pl.plan.names[l.abs] = path
	return f, nil
}

// Hashes maps each resolved path the plan read to the SHA-256 of its
// content then, or Absent. They are worked out on the first call: only a
// preview shown to the user needs them (Apply compares them with the
// preview's), and hashing is a good part of planning a large file.
func (p *Plan) Hashes() map[string]string {
	p.hashed.Do(func() {
		sums := make([]string, len(p.files))
		each(len(p.files), func(i int) {
			if f := p.files[i]; f.origExists {
				sums[i] = hash(stringBytes(f.orig))
			} else {
				sums[i] = Absent
			}
		})
		p.hashes = make(map[string]string, len(p.files))
		for i, f := range p.files {
			p.hashes[f.abs] = sums[i]
		}
	})
	return p.hashes
}

func hash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// Preview plans p against the files r resolves to, without writing. A nil
// sel plans the whole patch.
func Preview(r Resolver, p *Patch, sel *Selection) (*Plan, error) {
	pl := newPlanner(r)
	pl.prefetch(p, sel)
	for i := range p.Ops {
		op := &p.Ops[i]
		chosen, whole := sel.choose(op)
		if !whole && chosen == nil {
			continue
		}
		if err := pl.op(op, chosen); err != nil {
			return nil, err
		}
	}
	return pl.plan, nil
}

// choose says whether op is selected whole, or which chunks (by index) are.
func (s *Selection) choose(op *Op) (chunks map[int]bool, whole bool) {
	if s == nil {
		return nil, true
	}
	for _, f := range s.Files {
		if f == op.Path || op.MoveTo != "" && f == op.MoveTo {
			return nil, true
		}
	}
	for _, h := range s.Hunks {
		i := strings.LastIndexByte(h, '#')
		if i < 0 || h[:i] != op.Path {
			continue
		}
		n, err := strconv.Atoi(h[i+1:])
		if err != nil || n < 1 || n > len(op.Chunks) {
			continue
		}
		if chunks == nil {
			chunks = map[int]bool{}
		}
		chunks[n-1] = true
	}
	return chunks, false
}

func (pl *planner) op(op *Op, chosen map[int]bool) error {
	f, err := pl.load(op.Path)
	if err != nil {
		return err
	}
	old := ""
	if f.exists {
		old = f.content
	}
	switch op.Kind {
	case OpAdd:
		// Like Codex: adding a file that exists replaces it (its mode kept).
		replaces := f.exists
		f.exists, f.content = true, op.Content
		pl.record(op.Path, "add", "", old, op.Content, nil, nil, replaces)
	case OpDelete:
		if !f.exists {
			return errf(CodeNotFound, op.Path, "cannot delete: the file does not exist")
		}
		f.exists, f.content = false, ""
		pl.record(op.Path, "delete", "", old, "", nil, nil, false)
	case OpUpdate:
		if !f.exists {
			return errf(CodeNotFound, op.Path, "cannot update: the file does not exist")
		}
		if isBinary(f.content) {
			return errf(CodeBinary, op.Path, "cannot update a binary file (%d bytes)", len(f.content))
		}
		if pre := pl.ahead[op]; pre != nil {
			if pre.err != nil {
				return pre.err
			}
			f.content = pre.content
			pl.plan.Changes = append(pl.plan.Changes, pre.change)
			return nil
		}
		newContent, hunks, lines, err := applyChunks(op, f.content, chosen)
		if err != nil {
			return err
		}
		if op.MoveTo == "" {
			if len(op.Chunks) == 0 {
				return errf(CodeParse, op.Path, "the update has no changes")
			}
			f.content = newContent
			pl.record(op.Path, "update", "", old, newContent, hunks, lines, false)
			return nil
		}
		dst, err := pl.load(op.MoveTo)
		if err != nil {
			return err
		}
		replaced, replaces := "", false
		if dst != f {
			// Like Codex: moving onto a file that exists replaces it.
			replaced, replaces = dst.content, dst.exists
			if !dst.exists {
				dst.mode = f.mode
			}
			f.exists, f.content = false, ""
		}
		dst.exists, dst.content = true, newContent
		pl.record(op.MoveTo, "move", op.Path, old, newContent, hunks, lines, replaces)
		if replaces {
			c := &pl.plan.Changes[len(pl.plan.Changes)-1]
			c.ReplacedDiff, _, _ = unifiedDiff(op.MoveTo, op.MoveTo, lineDiff(replaced, newContent), false, false)
		}
	}
	return nil
}

// record adds the change of one operation; lines is its line diff when
// already known (updates), nil to diff old and new whole. replaces says the
// operation writes over a file that exists at path (an add, a write or the
// destination of a move).
func (pl *planner) record(path, operation, from, old, new string, hunks []Hunk, lines []diffLine, replaces bool) {
	pl.plan.Changes = append(pl.plan.Changes, change(path, operation, from, old, new, hunks, lines, replaces))
}

func change(path, operation, from, old, new string, hunks []Hunk, lines []diffLine, replaces bool) FileChange {
	diffPath := path
	if from != "" {
		diffPath = from
	}
	if lines == nil && old != new {
		lines = lineDiff(old, new)
	}
	// An add over a file that exists diffs against its old content.
	d, added, removed := unifiedDiff(diffPath, path, lines, operation == "add" && !replaces, operation == "delete")
	return FileChange{
		Path: path, Operation: operation, MovedFrom: from,
		LinesAdded: added, LinesRemoved: removed, Diff: d, Hunks: hunks,
		OldContent: old, NewContent: new, Replaces: replaces,
	}
}

// replacement replaces n lines at index at with the chunk's new lines.
type replacement struct {
	at, n int
	chunk int
	lines []Line // the chunk's lines, maybe without a trailing blank one
}

// applyChunks computes the content after op's chunks (only the chosen ones
// when chosen is non-nil; the others are still located, so hunk ids and
// positions do not depend on the selection).
func applyChunks(op *Op, content string, chosen map[int]bool) (string, []Hunk, []diffLine, error) {
	t := splitText(content)
	m := newMatcher(t.lines)
	reps := make([]replacement, 0, len(op.Chunks))
	idx := 0
	for ci := range op.Chunks {
		c := &op.Chunks[ci]
		if c.Context != "" {
			at := m.seek([]string{c.Context}, idx, false)
			if at < 0 {
				return "", nil, nil, errf(CodeContextNotFound, op.Path, "chunk %d (patch line %d): the context line %q was not found", ci+1, c.Line, c.Context)
			}
			idx = at + 1
		}
		lines := c.Lines
		old := c.Old()
		if len(old) == 0 {
			at := len(t.lines)
			if c.Context != "" {
				at = idx
			} else if at > 0 && strings.TrimSuffix(t.lines[at-1], "\r") == "" {
				at--
			}
			reps = append(reps, replacement{at: at, chunk: ci, lines: lines})
			continue
		}
		at := m.seek(old, idx, c.EOF)
		if at < 0 && old[len(old)-1] == "" {
			// A trailing blank line that the file does not have.
			last := len(lines) - 1
			for lines[last].Kind == Insert {
				last--
			}
			lines = append(append([]Line(nil), lines[:last]...), lines[last+1:]...)
			old = old[:len(old)-1]
			at = m.seek(old, idx, c.EOF)
		}
		if at < 0 {
			// Lines copied from read_file with their numbers: taken as the
			// file's lines only where the numbers name the very lines found.
			if ul, nums, ok := unnumbered(lines); ok {
				uold := (&Chunk{Lines: ul}).Old()
				if a := m.seek(uold, idx, c.EOF); a >= 0 && numbersFrom(nums, a+1) {
					at, lines, old = a, ul, uold
				}
			}
		}
		if at < 0 {
			where := "after the previous chunk"
			if c.EOF {
				where = "at the end of the file"
			}
			return "", nil, nil, errf(CodeContextNotFound, op.Path, "chunk %d (patch line %d): these lines were not found %s:\n%s%s", ci+1, c.Line, where, strings.Join(old, "\n"), numberedHint(old))
		}
		reps = append(reps, replacement{at: at, n: len(old), chunk: ci, lines: lines})
		idx = at + len(old)
	}
	sort.SliceStable(reps, func(i, j int) bool { return reps[i].at < reps[j].at })
	return splice(&t, reps, op.Path, chosen)
}
