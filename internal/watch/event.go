package watch

import "gatehouse/internal/protocol"

// Payload turns a batch into the fs.changed payload the UI gets, listing at
// most max paths (0: all); a longer batch is marked truncated.
func Payload(batch []Change, max int) protocol.FsChangedPayload {
	p := protocol.FsChangedPayload{Paths: []string{}, Kinds: []protocol.FsChangeKind{}}
	for i, c := range batch {
		if max > 0 && i == max {
			p.Truncated = true
			break
		}
		p.Paths = append(p.Paths, c.Path)
		p.Kinds = append(p.Kinds, c.Kind)
	}
	return p
}
