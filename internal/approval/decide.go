package approval

import (
	"slices"
	"strings"

	"gatehouse/internal/protocol"
)

// CallPlan is a call as Decide reads it: what it reads, what it changes, the
// commands it runs, the domain or server/tool it reaches, and whether it
// only reads. The gate builds it from the call's tools.Prepared (planOf);
// `policy check` builds it the same way from the same tool's plan.
type CallPlan struct {
	Tool string
	// Reads and Writes are workspace-relative, slash-separated, resolved
	// paths.
	Reads, Writes []string
	// ReadOnly: no writes, no runs, no other effect (tools.Prepared.ReadOnly).
	ReadOnly bool
	// Runs: the call runs or steers a command.
	Runs bool
	// keys are the gate's rule keys of the call (planCall); a CallPlan
	// written as a literal has none and is keyed by its tool as a whole.
	keys    standingKeys
	planned bool
}

// LayerKind says how a Layer decides.
type LayerKind string

const (
	// LayerRules: rules matched against the plan by one matcher, standing
	// files' and the session's alike.
	LayerRules LayerKind = "rules"
	// LayerVerdict: one answer already given for this call (a PreToolUse
	// hook's allow, ask or deny; "" when it defers).
	LayerVerdict LayerKind = "verdict"
)

// Layer is one source of decisions Decide weighs.
type Layer struct {
	Kind LayerKind
	// Source names the layer: "standing", "session", "hook:<name>".
	Source string
	// Rules (LayerRules): each rule's Layer says where it came from.
	Rules []StandingRule
	// Verdict and Why (LayerVerdict).
	Verdict Verdict
	Why     string
}

// Sources of the gate's own layers, and who decided by a verdict layer.
const (
	SourceStanding = "standing"
	SourceSession  = "session"
	// LayerSession is the Layer of a session rule made a StandingRule.
	LayerSession = "session"
	// ByLayer: a verdict layer decided (Decided.Source names it).
	ByLayer DecidedBy = "layer"
)

// Decide is the one verdict on a planned call, pure: a deny from any
// layer first, for every call, read or write; then an ask; then allow
// layers (rules that together cover the whole call, or a verdict layer's
// allow, which never beats a deny or an ask); then the mode: auto runs,
// safe runs what only reads and asks the rest, plan refuses what writes or
// runs a command and asks the rest that does not only read, manual asks.
// Mode "" decides by the layers only (VerdictNone when none does), as
// `policy check` reports.
func Decide(p CallPlan, layers []Layer, mode Mode) Decided {
	var rules []StandingRule
	for _, l := range layers {
		if l.Kind == LayerRules {
			rules = append(rules, l.Rules...)
		}
	}
	v, used := decidePlan(rules, p)
	for _, want := range []Verdict{VerdictDeny, VerdictAsk} {
		if v == want {
			return byRules(v, used)
		}
		for _, l := range layers {
			if l.Kind == LayerVerdict && l.Verdict == want {
				return Decided{Verdict: want, By: ByLayer, Source: l.Source, Why: l.why()}
			}
		}
	}
	if v == VerdictAllow {
		return byRules(v, used)
	}
	for _, l := range layers {
		if l.Kind == LayerVerdict && l.Verdict == VerdictAllow {
			return Decided{Verdict: VerdictAllow, By: ByLayer, Source: l.Source, Why: l.why()}
		}
	}
	return byMode(p, mode)
}

func (l Layer) why() string {
	if l.Why != "" {
		return l.Why
	}
	return string(l.Verdict) + " by " + l.Source
}

// byRules is the decision rules gave: by the session's rules when any of
// them took part, else by the standing policy.
func byRules(v Verdict, used []StandingRule) Decided {
	d := explain(v, used)
	d.By, d.Source = ByPolicy, SourceStanding
	if slices.ContainsFunc(used, func(r StandingRule) bool { return r.Layer == LayerSession }) {
		d.By, d.Source = ByRule, SourceSession
	}
	return d
}

func byMode(p CallPlan, mode Mode) Decided {
	d := Decided{Verdict: VerdictAsk, By: ByMode, Source: "mode"}
	switch {
	case mode == "":
		return explain(VerdictNone, nil)
	case mode == Auto:
		d.Verdict, d.Why = VerdictAllow, "auto mode runs every call"
	case mode == Plan && (len(p.Writes) > 0 || p.Runs):
		d.Verdict, d.Why = VerdictDeny, "plan mode runs only calls that read: this one changes files or runs a command"
	case (mode == Safe || mode == Plan) && p.ReadOnly:
		d.Verdict, d.Why = VerdictAllow, string(mode)+" mode runs calls that only read"
	case mode == Safe || mode == Plan:
		d.Why = string(mode) + " mode asks for a call that does more than read"
	default:
		d.Why = string(mode) + " mode asks for every call"
	}
	return d
}

// Access a rule with paths is about.
const (
	AccessRead  = "read"
	AccessWrite = "write"
	AccessAny   = "any" // read and write
)

// readingTools are the tools whose file rules are about reading: a rule
// with files written on one of them is a read rule of those paths on
// every route (what users of Read(...) rules elsewhere expect).
var readingTools = []string{"read_file", "view_image", "list_dir", "glob", "grep"}

// reads reports whether file rule r is about reading its paths, by every
// tool.
func (r StandingRule) reads() bool {
	switch r.Access {
	case AccessRead, AccessAny:
		return true
	case "":
		return slices.Contains(readingTools, r.Tool)
	}
	return false
}

// writesAll reports whether file rule r is about changing its paths by
// every tool (a rule with access; one without is about its own tool's
// files).
func (r StandingRule) writesAll() bool { return r.Access == AccessWrite || r.Access == AccessAny }

// touchesPaths reports whether file rule r (ask or deny) names a path p
// reads or changes, whatever the tool.
func (r StandingRule) touchesPaths(p CallPlan) bool {
	if len(r.Files) == 0 {
		return false
	}
	hit := func(paths []string) bool {
		return slices.ContainsFunc(paths, func(f string) bool {
			return slices.ContainsFunc(r.Files, func(g string) bool { return fileMatches(g, f) })
		})
	}
	return r.reads() && hit(p.Reads) || r.writesAll() && hit(p.Writes)
}

// decidePlan is decideStanding with the plan's paths: a read or write
// deny (ask) rule touches any call that reads (changes) a path it names.
func decidePlan(rules []StandingRule, p CallPlan) (Verdict, []StandingRule) {
	for _, v := range []Verdict{VerdictDeny, VerdictAsk} {
		for _, r := range rules {
			if r.Decision == v && r.touchesPaths(p) {
				return v, []StandingRule{r}
			}
		}
	}
	// A path rule speaks for its paths only: the tool-scoped matcher
	// below must not read it as a rule of its tool's every call.
	rest := rules[:0:0]
	for _, r := range rules {
		if r.Access == "" && !(r.reads() && len(r.Files) > 0) {
			rest = append(rest, r)
		}
	}
	k := p.keys
	if !p.planned {
		k = standingKeys{keys: keys{kind: keyTool}}
	}
	return decideStanding(rest, p.Tool, k)
}

// sessionRules are the session's rules as rules of the one matcher: an
// allow of exactly what the dialog showed (literal files, literal words,
// the folder relative to the root as standing rules name it).
func sessionRules(rs []protocol.Rule, rel func(string) string) []StandingRule {
	out := make([]StandingRule, 0, len(rs))
	for _, s := range rs {
		r := StandingRule{Rule: s, Decision: VerdictAllow, Layer: LayerSession}
		r.Files = nil
		for _, f := range s.Files {
			r.Files = append(r.Files, LiteralGlob(f))
		}
		r.Commands = nil
		for _, c := range s.Commands {
			if len(c) > 0 {
				r.Commands = append(r.Commands, LiteralPattern(c))
			}
		}
		if len(s.Commands) > 0 {
			if r.Cwd = rel(s.Cwd); r.Cwd == "" {
				r.Cwd = "."
			}
		}
		if len(s.Files) > 0 && len(r.Files) == 0 || len(s.Commands) > 0 && len(r.Commands) == 0 {
			continue // covers nothing
		}
		out = append(out, r)
	}
	return out
}

// FileRuleText names file rule r's paths and what it is about, for a
// summary: "read .env", "read or change keys/**", "apply_patch on x".
func FileRuleText(r StandingRule) string {
	what := strings.Join(r.Files, ", ")
	switch {
	case r.Access == AccessAny:
		return "read or change " + what + " (every tool)"
	case r.reads() && r.Access == AccessRead:
		return "read " + what + " (every tool)"
	case r.reads():
		return r.Tool + " on " + what + " (a read of these paths by every tool)"
	case r.Access == AccessWrite:
		return "change " + what + " (every tool)"
	}
	return r.Tool + " on " + what
}

// ReadDenied returns the first deny rule among rules that denies reading
// workspace-relative path rel, by every tool (a rule with paths and
// access read or any, or files on a reading tool).
func ReadDenied(rules []StandingRule, rel string) (StandingRule, bool) {
	p := CallPlan{Reads: []string{rel}}
	for _, r := range rules {
		if r.Decision == VerdictDeny && r.touchesPaths(p) {
			return r, true
		}
	}
	return StandingRule{}, false
}

// ReadsPaths reports whether r is a rule about reading its files by every
// tool.
func (r StandingRule) ReadsPaths() bool { return len(r.Files) > 0 && r.reads() }
