package proc

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
)

// maxPorts bounds the ports kept per process.
const maxPorts = 16

// localURL matches a URL on this machine with an explicit port, as dev servers
// print it ("Local: http://localhost:5173/"). The port must be followed by
// something else, so a port cut by the end of a read is not taken.
var localURL = regexp.MustCompile(`(?i)\bhttps?://(?:localhost|127\.0\.0\.1|0\.0\.0\.0|\[::1?\]):(\d{2,5})[^\d]`)

// ansiSeq matches terminal escape sequences (CSI and OSC), which dev servers
// put inside URLs to colour the port.
var ansiSeq = regexp.MustCompile("\x1b\\[[0-9;?]*[ -/]*[@-~]|\x1b\\][^\x07\x1b]*(?:\x07|\x1b\\\\)|\x1b[@-Z\\\\-_]")

// urlScanner finds local URLs in a stream of output. It keeps the end of the
// previous chunk so a URL split across two reads is still found, and costs a
// substring search per chunk when the output holds no "://".
type urlScanner struct {
	carry []byte
}

const urlCarry = 96

func (s *urlScanner) scan(p []byte) []int {
	var ports []int
	sep := []byte("://")
	edge := append(s.carry[max(0, len(s.carry)-2):len(s.carry):len(s.carry)], p[:min(len(p), 2)]...)
	if !bytes.Contains(p, sep) && !bytes.Contains(s.carry, sep) && !bytes.Contains(edge, sep) {
		s.keep(p)
		return nil
	}
	w := ansiSeq.ReplaceAll(append(slices.Clip(s.carry), p...), nil)
	rest := w
	for _, m := range localURL.FindAllSubmatchIndex(w, -1) {
		if n, err := strconv.Atoi(string(w[m[2]:m[3]])); err == nil && n > 0 && n < 65536 {
			ports = append(ports, n)
		}
		rest = w[m[1]:] // a URL found is not carried on to be found again
	}
	s.carry = s.carry[:0]
	s.keep(rest)
	return ports
}

// keep appends p to the carry, keeping its last urlCarry bytes.
func (s *urlScanner) keep(p []byte) {
	if len(p) >= urlCarry {
		s.carry = append(s.carry[:0], p[len(p)-urlCarry:]...)
		return
	}
	s.carry = append(s.carry, p...)
	if len(s.carry) > urlCarry {
		s.carry = append(s.carry[:0], s.carry[len(s.carry)-urlCarry:]...)
	}
}

func uniqueSorted(ports []int) []int {
	if len(ports) == 0 {
		return nil
	}
	slices.Sort(ports)
	ports = slices.Compact(ports)
	if len(ports) > maxPorts {
		ports = ports[:maxPorts]
	}
	return ports
}

// StripANSI returns b without terminal escape sequences (colours, cursor
// moves, titles).
func StripANSI(b []byte) []byte { return ansiSeq.ReplaceAll(b, nil) }
