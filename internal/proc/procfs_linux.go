package proc

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// procStat is what this package reads of /proc/<pid>/stat.
type procStat struct {
	pid, pgid, sid int
	zombie         bool
	start          uint64 // clock ticks after boot
}

// scanProcs lists every process of the system it can read.
func scanProcs() []procStat {
	d, err := os.Open("/proc")
	if err != nil {
		return nil
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	out := make([]procStat, 0, len(names))
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok {
			out = append(out, st)
		}
	}
	return out
}

// readStat parses /proc/<pid>/stat: "pid (comm) state ppid pgrp session ...";
// comm may hold spaces and parentheses, so fields are counted from the last ')'.
func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return procStat{}, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 20 {
		return procStat{}, false
	}
	pgid, _ := strconv.Atoi(f[2])
	sid, _ := strconv.Atoi(f[3])
	start, _ := strconv.ParseUint(f[19], 10, 64) // field 22 of stat
	return procStat{pid: pid, pgid: pgid, sid: sid, zombie: f[0] == "Z" || f[0] == "X", start: start}, true
}

// procStart is the start time of a live (non-zombie) process.
func procStart(pid int) (uint64, bool) {
	st, ok := readStat(pid)
	if !ok || st.zombie {
		return 0, false
	}
	return st.start, true
}

func (g group) has(st procStat) bool {
	return !st.zombie && (st.pgid == g.pgid || (g.sid > 0 && st.sid == g.sid))
}

// members lists the live (non-zombie) processes of g.
func members(g group) []int {
	var pids []int
	for _, st := range scanProcs() {
		if g.has(st) {
			pids = append(pids, st.pid)
		}
	}
	return pids
}

// alive reports whether g still has a live process. Zombies are dead: they
// wait for a parent to reap them and hold nothing but a table entry.
// A group under the supervisor is alive while the helper runs: it exits
// once no descendant is left, so /proc need not be scanned.
func alive(g group) bool {
	if g.sup != nil {
		return g.sup.running()
	}
	return len(members(g)) > 0
}

// membersOf maps each group to its live processes, with one scan of /proc.
func membersOf(gs []group) map[group][]int {
	out := make(map[group][]int, len(gs))
	for _, st := range scanProcs() {
		for _, g := range gs {
			if g.has(st) {
				out[g] = append(out[g], st.pid)
			}
		}
	}
	return out
}

// listeningPorts returns the TCP ports on which any of pids holds a
// listening socket, read from /proc/<pid>/fd and the socket tables of
// each network namespace they are in (/proc/<pid>/net/tcp{,6}: a command
// in the session's network namespace has its own).
func listeningPorts(pids []int) []int {
	inodes := map[string]bool{}
	tables := map[string]int{} // network namespace: a pid in it
	for _, pid := range pids {
		if ns, err := os.Readlink("/proc/" + strconv.Itoa(pid) + "/ns/net"); err == nil {
			if _, ok := tables[ns]; !ok {
				tables[ns] = pid
			}
		}
		dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
		d, err := os.Open(dir)
		if err != nil {
			continue
		}
		names, _ := d.Readdirnames(-1)
		d.Close()
		for _, n := range names {
			l, err := os.Readlink(dir + n)
			if err == nil && strings.HasPrefix(l, "socket:[") {
				inodes[strings.TrimSuffix(l[len("socket:["):], "]")] = true
			}
		}
	}
	if len(inodes) == 0 {
		return nil
	}
	var ports []int
	for _, pid := range tables {
		dir := "/proc/" + strconv.Itoa(pid) + "/net/"
		for _, f := range []string{dir + "tcp", dir + "tcp6"} {
			ports = append(ports, parseListen(f, inodes)...)
		}
	}
	return uniqueSorted(ports)
}

// parseListen reads one /proc/net/tcp file and returns the local ports of the
// sockets in LISTEN state (st 0A) whose inode is in inodes.
func parseListen(path string, inodes map[string]bool) []int {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	var ports []int
	sc := bufio.NewScanner(f)
	sc.Scan() // header
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		// sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
		if len(fs) < 10 || fs[3] != "0A" || !inodes[fs[9]] {
			continue
		}
		i := strings.LastIndexByte(fs[1], ':')
		if p, err := strconv.ParseUint(fs[1][i+1:], 16, 16); err == nil && i >= 0 {
			ports = append(ports, int(p))
		}
	}
	return ports
}
