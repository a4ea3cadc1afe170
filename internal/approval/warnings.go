package approval

import (
	"strings"

	"gatehouse/internal/protocol"
)

// SegmentWarnings are the warnings of one simple command in words, the
// worst first: what it destroys, what makes git run code, what it deletes,
// each path it reads or writes outside the workspace, writes into .git, the
// network, privileges, code that cannot be checked. Every host shows these
// lines: the window's dialog, `gatehouse exec`'s prompt and ACP's
// permission request.
func SegmentWarnings(s protocol.CommandSegment) []string {
	var out []string
	if s.Destructive != "" {
		out = append(out, s.Destructive)
	}
	if s.GitCode != "" {
		out = append(out, "makes git run code: it sets "+s.GitCode+", which git runs as a command later")
	}
	if s.Deletes {
		out = append(out, "deletes files")
	}
	where := func(p string) string {
		for _, q := range s.ProtectedPaths {
			if q == p {
				return "(a protected place)"
			}
		}
		return "(outside the workspace)"
	}
	for _, p := range s.ReadsOutside {
		out = append(out, "reads "+p+" "+where(p))
	}
	for _, p := range s.WritesOutsideTo {
		out = append(out, "writes "+p+" "+where(p))
	}
	if s.WritesOutside && len(s.WritesOutsideTo) == 0 {
		out = append(out, "writes outside the workspace")
	}
	if s.WritesGit {
		out = append(out, "writes into .git (can make git run code)")
	}
	if s.Network {
		out = append(out, "uses the network")
	}
	if s.Elevates {
		out = append(out, "elevates privileges")
	}
	if s.Opaque {
		out = append(out, "runs code that cannot be checked")
	}
	return out
}

// SandboxLine says where a command of c may write, as the dialog's
// Sandbox line does; "" for an action that starts nothing.
func SandboxLine(c *protocol.CommandPreview) string {
	if c == nil || c.Action != "exec" && c.Action != "start" {
		return ""
	}
	if c.Confined {
		if c.Sandbox != "" {
			return c.Sandbox // the tool's words: layers, reads, sockets, network
		}
		return "confined — writes only in the workspace, temp and tool caches"
	}
	return "not confined — can write anywhere you can"
}

// Warnings renders what a call's preview warns of, one line each: the
// sandbox line of a command, then each step with its warnings; for file
// changes, each file that replaces another or lies outside. Hosts that
// show text (a terminal, an editor's permission request) print these.
func Warnings(p protocol.Preview) []string {
	var out []string
	if c := p.Command; c != nil {
		if l := SandboxLine(c); l != "" {
			out = append(out, "Sandbox: "+l)
		}
		if c.ParseError != "" {
			out = append(out, "⚠ not valid shell ("+c.ParseError+"): no rule can cover it")
		}
		for _, s := range c.Segments {
			ws := s.Warnings
			if ws == nil {
				ws = SegmentWarnings(s)
			}
			if len(ws) > 0 {
				out = append(out, "⚠ "+s.Text+": "+strings.Join(ws, "; "))
			}
		}
	}
	for _, f := range p.Files {
		if f.ResolvedFrom != "" {
			out = append(out, f.MovedFrom+" is really "+f.ResolvedFrom)
		}
		if f.ResolvedPath != "" {
			out = append(out, f.Path+" is really "+f.ResolvedPath)
		}
		if f.Replaces {
			out = append(out, "⚠ "+f.Path+" replaces an existing file")
		}
	}
	return out
}
