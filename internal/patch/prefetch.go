package patch

import (
	"io/fs"
	"sync"

	"gatehouse/internal/workspace"
)

// ioWorkers bounds the files read or written at once. File I/O waits on the
// disk more than on the CPU, so a few more workers than cores pays off.
const ioWorkers = 8

// loaded is a file as read from disk before planning needs it.
type loaded struct {
	abs  string
	fi   fs.FileInfo // nil: absent
	data string
	err  error // from Resolve or the read; returned when the op reaches it
}

// planned is an update worked out by prefetch: the file's new content and
// the change, or why the update cannot apply.
type planned struct {
	content string
	change  FileChange
	err     error
}

// prefetch resolves and reads the files of the selected operations
// concurrently, so planning, which must go operation by operation, finds
// them in memory. Then it works out, also concurrently, the updates that
// are the only operation on their file: their outcome does not depend on
// the operations before them.
func (pl *planner) prefetch(p *Patch, sel *Selection) {
	var paths []string
	var ops []*Op
	chosen := map[*Op]map[int]bool{}
	seen := map[string]bool{}
	for i := range p.Ops {
		op := &p.Ops[i]
		c, whole := sel.choose(op)
		if !whole && c == nil {
			continue
		}
		ops, chosen[op] = append(ops, op), c
		for _, path := range []string{op.Path, op.MoveTo} {
			if path != "" && !seen[path] {
				seen[path] = true
				paths = append(paths, path)
			}
		}
	}
	if len(paths) < 2 {
		return
	}
	results := make([]loaded, len(paths))
	each(len(paths), func(i int) { results[i] = pl.read(paths[i]) })
	pl.cache = make(map[string]*loaded, len(paths))
	for i := range paths {
		pl.cache[paths[i]] = &results[i]
	}

	uses := map[string]int{} // operations per file
	for _, op := range ops {
		for _, path := range []string{op.Path, op.MoveTo} {
			if l := pl.cache[path]; path != "" && l.err == nil {
				uses[l.abs]++
			}
		}
	}
	var alone []*Op
	for _, op := range ops {
		l := pl.cache[op.Path]
		if op.Kind == OpUpdate && op.MoveTo == "" && len(op.Chunks) > 0 &&
			l.err == nil && l.fi != nil && uses[l.abs] == 1 && !isBinary(l.data) {
			alone = append(alone, op)
		}
	}
	ahead := make([]planned, len(alone))
	each(len(alone), func(i int) {
		op := alone[i]
		old := pl.cache[op.Path].data
		content, hunks, lines, err := applyChunks(op, old, chosen[op])
		if err != nil {
			ahead[i].err = err
			return
		}
		ahead[i] = planned{content: content, change: change(op.Path, "update", "", old, content, hunks, lines, false)}
	})
	pl.ahead = make(map[*Op]*planned, len(alone))
	for i, op := range alone {
		pl.ahead[op] = &ahead[i]
	}
}

// read resolves path for writing and reads the file there, if any.
func (pl *planner) read(path string) loaded {
	abs, err := pl.r.Resolve(path, resolveWrite)
	if err != nil {
		return loaded{err: err}
	}
	fi, b, err := readFile(abs)
	switch {
	case err != nil:
		return loaded{err: errf(CodeIO, path, "%v", err)}
	case fi == nil:
		return loaded{abs: abs}
	case fi.IsDir():
		return loaded{err: errf(CodeIsDirectory, path, "is a folder, not a file")}
	case !fi.Mode().IsRegular():
		return loaded{err: errf(CodeNotRegular, path, "is %s, not a regular file: only regular files are changed", workspace.Kind(fi.Mode()))}
	}
	return loaded{abs: abs, fi: fi, data: bytesString(b)}
}

// each calls fn(0) … fn(n-1), at most ioWorkers at once, and returns when
// all have returned.
func each(n int, fn func(i int)) {
	if n == 1 {
		fn(0)
		return
	}
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(ioWorkers, n); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		work <- i
	}
	close(work)
	wg.Wait()
}
