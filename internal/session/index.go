package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gatehouse/internal/atomicfile"
	"gatehouse/internal/protocol"
)

// The sessions list reads a summary of each log (its Info) from an index
// beside the logs, IndexFile in the workspace's folder, instead of reading
// every log: an entry holds for as long as its log keeps the size and
// modification time it was summarized at, so a log appended to (by this
// process or another: the window, exec, ACP) is read again, alone. The
// index is a cache: lost, stale or unreadable, it is rebuilt from the logs,
// and a log it names that is gone is left out.

// IndexFile is the name of the sessions' summary index in a workspace's
// folder of logs.
const IndexFile = "index.json"

// indexEntry is one log's summary and the file state it was made from.
type indexEntry struct {
	Size    int64 `json:"size"`
	ModNano int64 `json:"modNano"`
	Info    Info  `json:"info"`
}

type index struct {
	Workspace string                `json:"workspace"`
	Sessions  map[string]indexEntry `json:"sessions"`
}

// List returns the sessions of workspace, most recently updated first.
// Files that are not readable session logs are left out.
func (s *Store) List(workspace string) ([]Info, error) {
	dir := s.WorkspaceDir(workspace)
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return []Info{}, nil
	}
	if err != nil {
		return nil, err
	}
	old := readIndex(filepath.Join(dir, IndexFile), workspace)
	next := index{Workspace: workspace, Sessions: map[string]indexEntry{}}
	changed := false
	out := []Info{}
	for _, e := range entries {
		id, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() || CheckID(id) != nil {
			continue
		}
		fi, err := e.Info()
		if err != nil || !fi.Mode().IsRegular() {
			continue
		}
		ent, ok := old.Sessions[id]
		if !ok || ent.Size != fi.Size() || ent.ModNano != fi.ModTime().UnixNano() {
			info, err := summarize(filepath.Join(dir, e.Name()))
			if err != nil || info.ID != id || filepath.Clean(info.workspace) != filepath.Clean(workspace) {
				changed = changed || ok
				continue
			}
			ent, changed = indexEntry{Size: fi.Size(), ModNano: fi.ModTime().UnixNano(), Info: info.Info}, true
		}
		next.Sessions[id] = ent
		out = append(out, ent.Info)
	}
	if changed || len(next.Sessions) != len(old.Sessions) {
		// A cache: a failed write costs the next listing a read, no more.
		_ = writeIndex(filepath.Join(dir, IndexFile), next)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].UpdatedMs != out[j].UpdatedMs {
			return out[i].UpdatedMs > out[j].UpdatedMs
		}
		return out[i].ID > out[j].ID
	})
	return out, nil
}

func readIndex(path, workspace string) index {
	var ix index
	b, err := os.ReadFile(path)
	if err != nil || json.Unmarshal(b, &ix) != nil || filepath.Clean(ix.Workspace) != filepath.Clean(workspace) {
		return index{}
	}
	return ix
}

func writeIndex(path string, ix index) error {
	b, err := json.Marshal(ix)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, b, 0o600)
}

// summary is a log's Info and the workspace its meta line names.
type summary struct {
	Info
	workspace string
}

// summaryRecord is the part of a Record a summary reads.
type summaryRecord struct {
	Type RecordType `json:"type"`
	AtMs int64      `json:"atMs"`
	Meta *Meta      `json:"meta"`
	Item *struct {
		Kind protocol.ItemKind `json:"kind"`
		Text string            `json:"text"`
	} `json:"item"`
}

// summarize reads a log's Info as LoadFile would give it (the title, the
// last record's time, the turns), decoding only what that needs.
func summarize(path string) (summary, error) {
	f, err := os.Open(path)
	if err != nil {
		return summary{}, err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 64<<10)
	var out summary
	haveMeta, title := false, ""
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && line[len(line)-1] != '\n' || err == io.EOF {
			break // a torn last line is skipped, as LoadFile does
		}
		if err != nil {
			return summary{}, err
		}
		var rec summaryRecord
		if json.Unmarshal(bytes.TrimSpace(line), &rec) != nil {
			continue
		}
		if !haveMeta {
			if rec.Type != RecordMeta || rec.Meta == nil {
				return summary{}, fmt.Errorf("%s is not a session log", path)
			}
			haveMeta = true
			out.ID, out.workspace, out.CreatedMs, out.Title = rec.Meta.ID, rec.Meta.Workspace, rec.Meta.CreatedMs, rec.Meta.Title
			out.UpdatedMs = rec.AtMs
			continue
		}
		out.UpdatedMs = max(out.UpdatedMs, rec.AtMs)
		if rec.Type == RecordItem && rec.Item != nil && rec.Item.Kind == protocol.ItemUser {
			out.Turns++
			if title == "" {
				title = Title(rec.Item.Text)
			}
		}
	}
	if !haveMeta {
		return summary{}, fmt.Errorf("%s is not a session log: it has no meta line", path)
	}
	if out.Title == "" {
		out.Title = title
	}
	return out, nil
}

// Check says whether session id of workspace can be resumed: its log
// exists and starts with its meta line. It reads that line only.
func (s *Store) Check(workspace, id string) error {
	if err := CheckID(id); err != nil {
		return err
	}
	path := s.Path(workspace, id)
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("no saved session at %s", path)
		}
		return err
	}
	defer f.Close()
	line, err := bufio.NewReaderSize(f, 4<<10).ReadBytes('\n')
	var rec summaryRecord
	if err != nil || json.Unmarshal(bytes.TrimSpace(line), &rec) != nil || rec.Type != RecordMeta || rec.Meta == nil {
		return fmt.Errorf("%s is not a session log: it does not start with a meta line", path)
	}
	return nil
}
