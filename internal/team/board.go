package team

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"gatehouse/internal/protocol"
)

// board is the team's one list of tasks. Its owner holds the team's lock.
type board struct {
	tasks []protocol.TeamTask
}

// update is one team_task_update: id names the task; a new id creates it
// (title required).
type update struct {
	ID        string                  `json:"id"`
	Status    protocol.TeamTaskStatus `json:"status"`
	Owner     *string                 `json:"owner"`
	Note      string                  `json:"note"`
	Title     string                  `json:"title"`
	DependsOn []string                `json:"dependsOn"`
}

var taskID = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

func (b *board) find(id string) int {
	for i, t := range b.tasks {
		if t.ID == id {
			return i
		}
	}
	return -1
}

// apply makes u by member by; members are the names a task may be owned
// by. A refusal changes nothing and says why.
func (b *board) apply(by string, u update, members func(string) bool) (protocol.TeamTask, error) {
	if !taskID.MatchString(u.ID) {
		return protocol.TeamTask{}, fmt.Errorf("task id %q: use letters, digits, - _ . (up to 64)", u.ID)
	}
	if !u.Status.Valid() {
		return protocol.TeamTask{}, fmt.Errorf("status %q is not one of %s", u.Status, strings.Join(protocol.TeamTaskStatus("").EnumValues(), ", "))
	}
	i := b.find(u.ID)
	var t protocol.TeamTask
	if i < 0 {
		if strings.TrimSpace(u.Title) == "" {
			return protocol.TeamTask{}, fmt.Errorf("no task %q: give a title to create it", u.ID)
		}
		t = protocol.TeamTask{ID: u.ID}
	} else {
		t = b.tasks[i]
		t.DependsOn = slices.Clone(t.DependsOn)
		t.Notes = slices.Clone(t.Notes)
	}
	if u.Title != "" {
		t.Title = u.Title
	}
	if u.DependsOn != nil {
		for _, d := range u.DependsOn {
			if d == u.ID {
				return protocol.TeamTask{}, fmt.Errorf("task %s cannot depend on itself", u.ID)
			}
			if b.find(d) < 0 {
				return protocol.TeamTask{}, fmt.Errorf("task %s depends on %s, which is not on the board", u.ID, d)
			}
		}
		t.DependsOn = slices.Clone(u.DependsOn)
		sort.Strings(t.DependsOn)
		if cycle := b.cycleWith(t); cycle != "" {
			return protocol.TeamTask{}, fmt.Errorf("the dependencies would go round: %s", cycle)
		}
	}
	if u.Owner != nil {
		if o := *u.Owner; o != "" && !members(o) {
			return protocol.TeamTask{}, fmt.Errorf("owner %q is not a member of the team", o)
		}
		t.Owner = *u.Owner
	}
	if u.Status == protocol.TaskDone {
		for _, d := range t.DependsOn {
			if dt := b.tasks[b.find(d)]; dt.Status != protocol.TaskDone {
				return protocol.TeamTask{}, fmt.Errorf("task %s depends on %s (%s), which is not done", u.ID, d, dt.Status)
			}
		}
	}
	t.Status = u.Status
	if n := strings.TrimSpace(u.Note); n != "" {
		t.Notes = append(t.Notes, by+": "+n)
	}
	t.UpdatedBy = by
	if i < 0 {
		b.tasks = append(b.tasks, t)
	} else {
		b.tasks[i] = t
	}
	return t, nil
}

// cycleWith is "a → b → a" when t, put on the board, closes a loop of
// dependencies; "" when none.
func (b *board) cycleWith(t protocol.TeamTask) string {
	deps := map[string][]string{}
	for _, x := range b.tasks {
		deps[x.ID] = x.DependsOn
	}
	deps[t.ID] = t.DependsOn
	var path []string
	seen := map[string]bool{}
	var walk func(id string) bool
	walk = func(id string) bool {
		if id == t.ID && len(path) > 0 {
			return true
		}
		if seen[id] {
			return false
		}
		seen[id] = true
		path = append(path, id)
		for _, d := range deps[id] {
			if walk(d) {
				return true
			}
		}
		path = path[:len(path)-1]
		return false
	}
	if walk(t.ID) {
		return strings.Join(append(path, t.ID), " → ")
	}
	return ""
}

// list is a copy of every task.
func (b *board) list() []protocol.TeamTask {
	out := make([]protocol.TeamTask, len(b.tasks))
	for i, t := range b.tasks {
		t.DependsOn = slices.Clone(t.DependsOn)
		t.Notes = slices.Clone(t.Notes)
		out[i] = t
	}
	return out
}

// waitCycle finds members who wait on each other: a member waits on
// another when a task it owns, not done, depends on a task the other owns,
// not done. It returns the members of a loop of waits in which every one
// is idle (nothing will move), and the line saying why; nil when none.
func (b *board) waitCycle(idle func(string) bool) ([]string, string) {
	byID := map[string]protocol.TeamTask{}
	for _, t := range b.tasks {
		byID[t.ID] = t
	}
	type edge struct{ to, task, dep string }
	waits := map[string][]edge{}
	for _, t := range b.tasks {
		if t.Status == protocol.TaskDone || t.Owner == "" || !idle(t.Owner) {
			continue
		}
		for _, d := range t.DependsOn {
			dt := byID[d]
			if dt.Status != protocol.TaskDone && dt.Owner != "" && dt.Owner != t.Owner && idle(dt.Owner) {
				waits[t.Owner] = append(waits[t.Owner], edge{dt.Owner, t.ID, d})
			}
		}
	}
	names := make([]string, 0, len(waits))
	for n := range waits {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, start := range names {
		var path []edge
		var at []string
		onPath := map[string]int{}
		var walk func(n string) []edge
		walk = func(n string) []edge {
			if i, ok := onPath[n]; ok {
				at = at[i:]
				return path[i:]
			}
			onPath[n] = len(path)
			at = append(at, n)
			for _, e := range waits[n] {
				path = append(path, e)
				if c := walk(e.to); c != nil {
					return c
				}
				path = path[:len(path)-1]
			}
			delete(onPath, n)
			at = at[:len(at)-1]
			return nil
		}
		if c := walk(start); c != nil {
			var why []string
			for i, e := range c {
				why = append(why, fmt.Sprintf("%s waits on %s (%s needs %s)", at[i], e.to, e.task, e.dep))
			}
			members := slices.Clone(at[:len(c)])
			sort.Strings(members)
			return members, strings.Join(why, "; ")
		}
	}
	return nil, ""
}
