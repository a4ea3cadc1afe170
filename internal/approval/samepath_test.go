package approval

import "testing"

// TestReadDenyHoldsForEverySpellingOfAPath: where the file system opens a
// file by another spelling (macOS, Windows: any case; Windows: trailing
// dots and spaces, a ::$DATA stream), a read deny of .env and keys/**
// holds for each of them; a different name stays readable.
func TestReadDenyHoldsForEverySpellingOfAPath(t *testing.T) {
	fold, win := foldPaths, windowsNames
	t.Cleanup(func() { foldPaths, windowsNames = fold, win })
	r := StandingRule{Decision: VerdictDeny, Reason: "secrets stay out"}
	r.Tool, r.Files = "read_file", []string{".env", "keys/**"}
	rules := []StandingRule{r}
	check := func(p string, want bool) {
		t.Helper()
		if _, got := ReadDenied(rules, p); got != want {
			t.Errorf("foldPaths %v, windows %v: ReadDenied(%q) = %v, want %v", foldPaths, windowsNames, p, got, want)
		}
	}
	foldPaths, windowsNames = true, false // macOS
	for _, p := range []string{".env", ".ENV", ".Env", "KEYS/deploy.pem", "Keys/Deploy.PEM"} {
		check(p, true)
	}
	check("env", false)
	check("src/.env.example", false)
	foldPaths, windowsNames = true, true // Windows
	for _, p := range []string{".ENV", ".env.", ".env. .", ".env::$DATA", "keys./deploy.pem", "KEYS /x.pem"} {
		check(p, true)
	}
	check(".env.example", false)
	foldPaths, windowsNames = false, false // Linux: another spelling is another file
	check(".env", true)
	check(".ENV", false)
}
