package files

import (
	"context"
	"runtime"
	"sync"
)

// grepJob is one file to search, numbered in walk order.
type grepJob struct {
	idx      int
	rel, abs string
}

// grepDone is what searching one file found.
type grepDone struct {
	idx     int
	matches []grepMatch
	more    bool // the file held more than the cap
}

// grepPool searches files on bounded workers while the walk goes on, and
// puts the results back in walk order: the matches of file n are taken
// only after those of files 0..n-1, so the first limit matches and the
// filesSearched count are the ones a one-by-one search gives.
type grepPool struct {
	m     *matcher
	limit int
	ctx   context.Context

	jobs    chan grepJob
	results chan grepDone
	stop    chan struct{} // closed once the limit is passed
	workers sync.WaitGroup
	merged  chan struct{}
	sent    int

	// Written by the merging goroutine; read after it ends.
	res *grepResult
}

func newGrepPool(ctx context.Context, m *matcher, limit int, res *grepResult) *grepPool {
	n := max(2, runtime.GOMAXPROCS(0))
	p := &grepPool{
		m: m, limit: limit, ctx: ctx, res: res,
		jobs:    make(chan grepJob, 4*n),
		results: make(chan grepDone, 4*n),
		stop:    make(chan struct{}),
		merged:  make(chan struct{}),
	}
	for range n {
		p.workers.Add(1)
		go p.work()
	}
	go p.merge()
	return p
}

func (p *grepPool) work() {
	defer p.workers.Done()
	var buf []byte
	for j := range p.jobs {
		d := grepDone{idx: j.idx}
		select {
		case <-p.stop:
		default:
			if p.ctx.Err() == nil {
				buf, d.matches, d.more = p.m.searchFile(j.abs, j.rel, buf, p.limit, nil)
			}
		}
		p.results <- d
	}
}

func (p *grepPool) merge() {
	defer close(p.merged)
	pending := map[int]grepDone{}
	next, stopped := 0, false
	for d := range p.results {
		if stopped {
			continue
		}
		pending[d.idx] = d
		for {
			d, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			room := p.limit - len(p.res.Matches)
			if len(d.matches) > room || d.more && len(d.matches) == room {
				p.res.Matches = append(p.res.Matches, d.matches[:min(room, len(d.matches))]...)
				p.res.Truncated, p.res.FilesSearched = true, next
				stopped = true
				close(p.stop)
				break
			}
			p.res.Matches = append(p.res.Matches, d.matches...)
		}
	}
}

// add queues the file for searching; it returns errStop once the limit
// is passed.
func (p *grepPool) add(rel, abs string) error {
	select {
	case p.jobs <- grepJob{idx: p.sent, rel: rel, abs: abs}:
		p.sent++
		return nil
	case <-p.stop:
		return errStop
	}
}

// finish waits for the queued files and completes res.
func (p *grepPool) finish() {
	close(p.jobs)
	p.workers.Wait()
	close(p.results)
	<-p.merged
	if !p.res.Truncated {
		p.res.FilesSearched = p.sent
	}
}
