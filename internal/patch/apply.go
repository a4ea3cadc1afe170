package patch

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
)

// Apply writes the plan. It first refuses with changed_since_preview when
// the plan differs from preview, an earlier plan of the same call shown to
// the user (nil when there was none): a path now resolves to another file
// than it did then (a symlink was repointed), or a file is not in the
// preview, or a file's content differs from the preview's hash. It refuses
// too when a file has changed on disk since the plan read it (another
// inode, size or modification time). Then every new content goes to a temp
// file in its target's folder; only when all are written are they renamed
// into place. If a rename or delete fails, the files already changed are
// restored and the error says so.
func (p *Plan) Apply(preview *Plan) error {
	if err := p.recheck(preview); err != nil {
		return err
	}
	var changed []*file
	for _, f := range p.files {
		if f.changed() {
			changed = append(changed, f)
		}
	}
	s := &staging{temps: map[*file]string{}}
	if err := s.prepare(changed); err != nil {
		s.discard()
		return errf(CodeIO, "", "%v; no file was modified", err)
	}
	done := 0
	for _, f := range changed {
		var err error
		if p.failAt > 0 && done+1 == p.failAt {
			err = errors.New("injected failure")
		} else if f.exists {
			err = rename(s.temps[f], f.abs)
		} else {
			err = os.Remove(f.abs)
		}
		if err != nil {
			rerr := restore(changed[:done])
			s.discard()
			if rerr != nil {
				return errf(CodeIO, "", "writing %s: %v; restoring the files written before it failed too: %v", f.abs, err, rerr)
			}
			return errf(CodeIO, "", "writing %s: %v; the files written before it were restored, no file was modified", f.abs, err)
		}
		delete(s.temps, f)
		done++
	}
	s.discard()
	return nil
}

func (p *Plan) recheck(preview *Plan) error {
	if preview != nil {
		// Where the paths resolve first: the preview's hashes are keyed by
		// the files it showed, so a file it did not show has none to differ.
		given := make([]string, 0, len(p.given))
		for g := range p.given {
			given = append(given, g)
		}
		sort.Strings(given)
		for _, g := range given {
			if was, ok := preview.given[g]; !ok || was != p.given[g] {
				return errf(CodeChanged, g, "changed since preview: the path now resolves to %s, not to the file the preview showed (a symlink changed?); no file was modified", p.given[g])
			}
		}
	}
	paths := make([]string, 0, len(p.files))
	for _, f := range p.files {
		paths = append(paths, f.abs)
	}
	sort.Strings(paths)
	same := make([]bool, len(paths))
	each(len(paths), func(i int) { same[i] = p.unchanged(paths[i]) })
	var was, now map[string]string
	if preview != nil {
		was, now = preview.Hashes(), p.Hashes()
	}
	for i, abs := range paths {
		if pv, ok := was[abs]; preview != nil && (!ok || pv != now[abs]) || !same[i] {
			return errf(CodeChanged, p.names[abs], "changed since preview: the file is not as it was when the change was shown; no file was modified")
		}
	}
	return nil
}

// unchanged reports whether the file at abs is as the plan read it.
func (p *Plan) unchanged(abs string) bool {
	before := p.stats[abs]
	now, err := os.Stat(abs)
	if before == nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	return err == nil && os.SameFile(before, now) && now.Size() == before.Size() &&
		now.ModTime().Equal(before.ModTime()) && now.Mode() == before.Mode()
}

// staging holds the temp files and the folders created for them.
type staging struct {
	temps map[*file]string
	dirs  []string        // created, outermost first
	ready map[string]bool // folders known to exist
}

func (s *staging) prepare(changed []*file) error {
	var writes []*file
	for _, f := range changed {
		if !f.exists {
			continue
		}
		if err := s.mkdirAll(filepath.Dir(f.abs)); err != nil {
			return err
		}
		writes = append(writes, f)
	}
	temps := make([]string, len(writes))
	errs := make([]error, len(writes))
	each(len(writes), func(i int) { temps[i], errs[i] = writeTemp(writes[i]) })
	for i, f := range writes {
		if temps[i] != "" {
			s.temps[f] = temps[i]
		}
	}
	return errors.Join(errs...)
}

// writeTemp writes f's content to a new temp file beside it, with f's mode.
func writeTemp(f *file) (string, error) {
	tmp, err := createTemp(filepath.Dir(f.abs))
	if err != nil {
		return "", err
	}
	_, err = tmp.WriteString(f.content)
	if err == nil {
		err = tmp.Chmod(f.mode)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	return tmp.Name(), err
}

func (s *staging) mkdirAll(dir string) error {
	if s.ready[dir] {
		return nil
	}
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a folder", d)
			}
			break
		}
		if !errors.Is(err, fs.ErrNotExist) || filepath.Dir(d) == d {
			return err
		}
		missing = append(missing, d)
	}
	for i := len(missing) - 1; i >= 0; i-- {
		if err := os.Mkdir(missing[i], 0o755); err != nil && !errors.Is(err, fs.ErrExist) {
			return err
		}
		s.dirs = append(s.dirs, missing[i])
	}
	if s.ready == nil {
		s.ready = map[string]bool{}
	}
	s.ready[dir] = true
	return nil
}

// discard removes the temp files left and the folders created, if empty.
func (s *staging) discard() {
	for _, t := range s.temps {
		os.Remove(t)
	}
	for i := len(s.dirs) - 1; i >= 0; i-- {
		os.Remove(s.dirs[i]) // fails, as it should, when not empty
	}
}

// restore puts back the original content of files already changed, last
// first.
func restore(done []*file) error {
	var errs []error
	for i := len(done) - 1; i >= 0; i-- {
		f := done[i]
		var err error
		if f.origExists {
			err = writeAtomic(f.abs, f.orig, f.origMode)
		} else {
			err = os.Remove(f.abs)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// writeAtomic writes b to path through a temp file in the same folder.
func writeAtomic(path string, b string, mode fs.FileMode) error {
	tmp, err := createTemp(filepath.Dir(path))
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(b)
	if err == nil {
		err = tmp.Chmod(mode)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
}
