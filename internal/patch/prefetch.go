package patch

import (
	"errors"
	"io/fs"
	"os"
	"sync"
)

// ioWorkers bounds the files read or written at once. File I/O waits on the
// disk more than on the CPU, so a few more workers than cores pays off.
const ioWorkers = 8

// loaded is a file as read from disk before planning needs it.
type loaded struct {
	abs  string
	fi   fs.FileInfo // nil: absent
	data string
	hash string
	err  error // from Resolve or the read; returned when the op reaches it
}

// prefetch resolves and reads the files of the selected operations
// concurrently, so planning, which must go operation by operation, finds
// them in memory.
func (pl *planner) prefetch(p *Patch, sel *Selection) {
	var paths []string
	seen := map[string]bool{}
	for i := range p.Ops {
		op := &p.Ops[i]
		if chosen, whole := sel.choose(op); !whole && chosen == nil {
			continue
		}
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
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(ioWorkers, len(paths)); w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				results[i] = pl.read(paths[i])
			}
		}()
	}
	for i := range paths {
		work <- i
	}
	close(work)
	wg.Wait()
	pl.cache = make(map[string]*loaded, len(paths))
	for i := range paths {
		pl.cache[paths[i]] = &results[i]
	}
}

// read resolves path for writing and reads the file there, if any.
func (pl *planner) read(path string) loaded {
	abs, err := pl.r.Resolve(path, resolveWrite)
	if err != nil {
		return loaded{err: err}
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return loaded{abs: abs}
	case err != nil:
		return loaded{err: errf(CodeIO, path, "%v", err)}
	case fi.IsDir():
		return loaded{err: errf(CodeIsDirectory, path, "is a folder, not a file")}
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return loaded{err: errf(CodeIO, path, "%v", err)}
	}
	return loaded{abs: abs, fi: fi, data: string(b), hash: hash(b)}
}
