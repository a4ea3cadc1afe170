package files

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"gatehouse/internal/workspace"
)

// scanLines is the line-by-line search the fast paths must agree with:
// a scanner's lines (a final "\r" dropped), each run through the regexp.
func scanLines(re *regexp.Regexp, data []byte) []grepMatch {
	var out []grepMatch
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), grepMaxFileSize)
	for n := 1; sc.Scan(); n++ {
		if re.Match(sc.Bytes()) {
			out = append(out, grepMatch{Path: "f", Line: n, Text: shownLine(sc.Bytes())})
		}
	}
	return out
}

func TestGrepMatcherAgreesWithLineByLine(t *testing.T) {
	patterns := []string{
		"needle", "(?i)needle", "^needle", "needle$", "ne+dle", "(needle)+x", "x{2,}needle",
		"needle|pin", `\bneedle\b`, "^$", "a\nb", "ne.dle", "\ufffd", `needle\r`, "(?m)^needle$",
		"nee(dle)?", "n[eo]edle", `\Aneedle`, `needle\z`, `\bx`, `\sneedle`, `(?i)ne[e]dle\b`, `^\s*$`,
		`(?i)^pin`, `^needle$`, `^a needle$`, `[^a]+`, `x|^b`, `(?i)NeEdLe`, `(?i)x+needle`, `(?i)dle\b`, `(?i)s`, `(?i)ask`,
	}
	contents := []string{
		"", "needle", "needle\n", "a needle\nb\n", "needle\r\nneedle\r\n", "x\n\nneedle\r\r\n",
		"a\nb\n", "NEEDLE in caps\nneedleneedle\n", "pin\nneeedle\nxxneedle\n", "caf\xe9 needle\n\xff\n",
		"needlex needlexneedlex\n", "no match here\nat all", "\n\n\n",
	}
	rng := rand.New(rand.NewSource(1))
	words := []string{"needle", "NeEdLe", "NEEDLE", "\u017f", "\u212a", "ask", "AS", "pin", "x", "xx", " ", "\n", "\r\n", "\r", "ne", "dle", "a", "b", "\xff"}
	for range 200 {
		var b strings.Builder
		for range rng.Intn(60) {
			b.WriteString(words[rng.Intn(len(words))])
		}
		contents = append(contents, b.String())
	}
	for _, p := range patterns {
		re := regexp.MustCompile(p)
		m := newMatcher(re)
		for _, c := range contents {
			want := scanLines(re, []byte(c))
			got, more := m.search([]byte(c), "f", 1000, nil)
			if more || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%q in %q: got %v, want %v", p, c, got, want)
			}
		}
	}
}

func TestGrepRequiredLiteral(t *testing.T) {
	for p, want := range map[string]string{
		"func NewReader":      "func NewReader",
		`func \w+Reader\(`:    "Reader(",
		"a|b":                 "",
		"(abc)+x":             "abc",
		"x*needle":            "needle",
		"a\nbc":               "",
		`^\s*return nil, err`: "return nil, err",
	} {
		m := newMatcher(regexp.MustCompile(p))
		if got := string(m.lit); m.fold || got != want {
			t.Errorf("%q: literal %q (fold %v), want %q", p, got, m.fold, want)
		}
	}
}

// grepTree writes files (slash paths) into a fresh workspace.
func grepTree(t *testing.T, files map[string]string) *workspace.Workspace {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := workspace.New(root, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return ws
}

func grepPaths(out map[string]any) []string {
	var paths []string
	for _, m := range out["matches"].([]any) {
		mm := m.(map[string]any)
		paths = append(paths, fmt.Sprintf("%s:%v", mm["path"], mm["line"]))
	}
	return paths
}

// TestGrepKeepsWalkOrder searches many files on parallel workers, the first
// ones slow (large, matching at their end): the matches still come in walk
// order, and a cap keeps the first ones in that order.
func TestGrepKeepsWalkOrder(t *testing.T) {
	files := map[string]string{}
	var want []string
	for d := range 6 {
		for f := range 40 {
			p := fmt.Sprintf("d%d/f%02d.txt", d, f)
			body := "needle one\nnothing\nneedle two\n"
			if f < 3 {
				body = strings.Repeat("filler line\n", 60_000) + body
			}
			files[p] = body
			first := strings.Count(body, "\n") - 2
			want = append(want, fmt.Sprintf("%s:%d", p, first), fmt.Sprintf("%s:%d", p, first+2))
		}
	}
	ws := grepTree(t, files)
	for range 3 {
		out, isErr := run(t, NewGrep(ws), map[string]any{"pattern": "needle", "maxResults": 1000})
		if got := grepPaths(out); isErr || strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("order: got %v\nwant %v", got, want)
		}
		if out["truncated"] != false || out["filesSearched"] != float64(240) {
			t.Fatalf("uncapped: %v %v", out["truncated"], out["filesSearched"])
		}
		out, _ = run(t, NewGrep(ws), map[string]any{"pattern": "ne+dle", "maxResults": 7})
		if got := grepPaths(out); strings.Join(got, " ") != strings.Join(want[:7], " ") {
			t.Fatalf("capped order: got %v, want %v", got, want[:7])
		}
	}
}

// TestGrepTruncatedCountsFilesUpToTheCap: filesSearched counts the files in
// walk order up to the one where the cap was passed, whatever the workers
// searched beyond it; reaching the cap exactly is not a truncation.
func TestGrepTruncatedCountsFilesUpToTheCap(t *testing.T) {
	files := map[string]string{}
	for f := range 50 {
		files[fmt.Sprintf("f%02d.txt", f)] = "hit\nhit\nhit\n"
	}
	files["f03.txt"] = "no\n"
	ws := grepTree(t, files)
	for _, c := range []struct {
		max, files, matches int
		truncated           bool
	}{
		{max: 10, files: 5, matches: 10, truncated: true}, // 3+3+3+0+3 passes 10 in f04
		{max: 9, files: 5, matches: 9, truncated: true},   // 9 reached in f02, the next hit is in f04
		{max: 2, files: 1, matches: 2, truncated: true},
		{max: 1000, files: 50, matches: 147, truncated: false},
	} {
		out, _ := run(t, NewGrep(ws), map[string]any{"pattern": "hit", "maxResults": c.max})
		if out["filesSearched"] != float64(c.files) || len(out["matches"].([]any)) != c.matches || out["truncated"] != c.truncated {
			t.Errorf("max %d: filesSearched %v, %d matches, truncated %v; want %d, %d, %v",
				c.max, out["filesSearched"], len(out["matches"].([]any)), out["truncated"], c.files, c.matches, c.truncated)
		}
	}
	exact := grepTree(t, map[string]string{"a.txt": "hit\nhit\n", "b.txt": "hit\n", "c.txt": "miss\n"})
	out, _ := run(t, NewGrep(exact), map[string]any{"pattern": "hit", "maxResults": 3})
	if out["truncated"] != false || out["filesSearched"] != float64(3) {
		t.Errorf("exactly the cap: %v", out)
	}
	out, _ = run(t, NewGrep(exact), map[string]any{"pattern": "hit", "path": "a.txt", "maxResults": 1})
	if out["truncated"] != true || out["filesSearched"] != float64(1) || len(out["matches"].([]any)) != 1 {
		t.Errorf("one file past the cap: %v", out)
	}
}

// TestGrepSkipsBinaryFiles: a NUL in the first block makes a file binary,
// however large; one past the sampled block does not.
func TestGrepSkipsBinaryFiles(t *testing.T) {
	ws := grepTree(t, map[string]string{
		"a-small.bin": "\x00needle\n",
		"b-large.bin": "\x00" + strings.Repeat("needle\n", 300_000),
		"c-late.txt":  strings.Repeat("x", 9000) + "\x00\nneedle\n",
		"d-text.txt":  "needle\n",
	})
	out, _ := run(t, NewGrep(ws), map[string]any{"pattern": "needle"})
	if got := strings.Join(grepPaths(out), " "); got != "c-late.txt:2 d-text.txt:1" || out["filesSearched"] != float64(4) {
		t.Errorf("binary skip: %s (filesSearched %v)", got, out["filesSearched"])
	}
}

// TestGrepIndexIsBytesIndex: the rare-byte search finds what bytes.Index
// finds, its hand-over to bytes.Index included (a text full of the rare
// byte), and the search ignoring ASCII case what it finds in lower case.
func TestGrepFoldLiteral(t *testing.T) {
	for p, want := range map[string]string{
		"(?i)NewReader": "newreader",
		"(?i)func Read": "func read",
		"(?i)ask":       "", // the Kelvin sign folds to k, the long s to s
		"(?i)caf\u00e9": "",
		"NewReader":     "",
	} {
		m := newMatcher(regexp.MustCompile(p))
		if got := string(m.lit); m.fold && got != want || !m.fold && want != "" {
			t.Errorf("%q: fold literal %q (fold %v), want %q", p, got, m.fold, want)
		}
	}
}

func TestGrepIndexIsBytesIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	alphabet := "aNb NxnA"
	for range 2000 {
		lit := make([]byte, 1+rng.Intn(4))
		for i := range lit {
			lit[i] = alphabet[rng.Intn(len(alphabet))]
		}
		s := make([]byte, rng.Intn(2000))
		for i := range s {
			s[i] = alphabet[rng.Intn(len(alphabet))]
		}
		m := &matcher{lit: lit, rare: rarest(lit)}
		if got, want := m.index(s), bytes.Index(s, lit); got != want {
			t.Fatalf("index(%q) in %q = %d, want %d", lit, s, got, want)
		}
		lower := bytes.ToLower(lit)
		f := &matcher{lit: lower, rare: rarest(lower), fold: true}
		if got, want := f.indexFold(s), bytes.Index(bytes.ToLower(s), lower); got != want {
			t.Fatalf("indexFold(%q) in %q = %d, want %d", lower, s, got, want)
		}
	}
}

// TestGrepLeavesOutDeniedFiles: files the user's policy denies are not
// searched, a symlink to one neither, and the result counts them.
func TestGrepLeavesOutDeniedFiles(t *testing.T) {
	ws := grepTree(t, map[string]string{
		"a.txt":       "needle\n",
		"secret.env":  "needle\n",
		"keys/b.txt":  "needle\n",
		"z/plain.txt": "needle\n",
	})
	os.Symlink("../secret.env", filepath.Join(ws.Root(), "z", "to-secret"))
	ws.SetDeny(func() workspace.Deny {
		return func(rel string, _ workspace.Access) string {
			if rel == "secret.env" || rel == "keys" || strings.HasPrefix(rel, "keys/") {
				return "denied"
			}
			return ""
		}
	})
	out, _ := run(t, NewGrep(ws), map[string]any{"pattern": "needle"})
	if got := strings.Join(grepPaths(out), " "); got != "a.txt:1 z/plain.txt:1" || out["hiddenByPolicy"] != float64(3) || out["filesSearched"] != float64(2) {
		t.Errorf("denied files: %s, hidden %v, filesSearched %v", got, out["hiddenByPolicy"], out["filesSearched"])
	}
}
