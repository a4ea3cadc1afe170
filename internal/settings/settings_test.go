package settings

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const secret = "sk-test-0123456789"

func TestFirstRunLoadsDefaults(t *testing.T) {
	st := NewStore(filepath.Join(t.TempDir(), "gatehouse"))
	got, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	if got.ApprovalMode != ApprovalSafe || got.Theme != ThemeSystem || got.BaseURL != "" {
		t.Fatalf("defaults = %+v", got)
	}
	k, err := st.LoadKey()
	if err != nil || k.IsSet() {
		t.Fatalf("key = %v, %v", k, err)
	}
}

func TestSaveLoadRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gatehouse")
	st := NewStore(dir)
	in := Settings{BaseURL: "http://127.0.0.1:1234/v1", Model: "m", ApprovalMode: ApprovalManual,
		Theme: ThemeDark, LastWorkspace: "/w", RecentWorkspaces: []string{"/w", "/v"}, ContextWindow: 32_000, API: APIResponses}
	if err := st.Save(in); err != nil {
		t.Fatal(err)
	}
	out, err := st.Load()
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(in) != fmt.Sprint(out) {
		t.Fatalf("got %+v\nwant %+v", out, in)
	}
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("dir mode %v, %v", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

func TestSaveRefusesUnknownValues(t *testing.T) {
	st := NewStore(t.TempDir())
	for _, s := range []Settings{
		{ApprovalMode: "yolo", Theme: ThemeDark},
		{ApprovalMode: ApprovalAuto, Theme: "neon"},
		{ApprovalMode: ApprovalAuto, Theme: ThemeDark, BaseURL: "ftp://x"},
		{ApprovalMode: ApprovalAuto, Theme: ThemeDark, ContextWindow: -1},
		{ApprovalMode: ApprovalAuto, Theme: ThemeDark, UndoStoreMiB: -1},
		{ApprovalMode: ApprovalAuto, Theme: ThemeDark, API: "completions"},
		{ApprovalMode: ApprovalAuto, Theme: ThemeDark, Sandbox: "none"},
		{ApprovalMode: ApprovalAuto, Theme: ThemeDark, CompactAt: 150},
		{ApprovalMode: ApprovalAuto, Theme: ThemeDark, MicroCompactAt: 5},
		{ApprovalMode: ApprovalAuto, Theme: ThemeDark, Network: "proxy"},
	} {
		if err := st.Save(s); err == nil {
			t.Errorf("Save(%+v) accepted", s)
		}
	}
}

func TestLoadRepairsUnknownValuesAndReportsBadJSON(t *testing.T) {
	dir := t.TempDir()
	st := NewStore(dir)
	os.WriteFile(filepath.Join(dir, SettingsFile), []byte(`{"approvalMode":"yolo","theme":"neon","model":"m","contextWindow":-5,"api":"completions","compactAt":300,"microCompactAt":60,"sandbox":"none"}`), 0o644)
	got, err := st.Load()
	if err != nil || got.ApprovalMode != ApprovalSafe || got.Theme != ThemeSystem || got.Model != "m" || got.ContextWindow != 0 || got.API != "" ||
		got.CompactAt != 0 || got.MicroCompactAt != 60 || got.Sandbox != "" {
		t.Fatalf("got %+v, %v", got, err)
	}
	os.WriteFile(filepath.Join(dir, SettingsFile), []byte(`{"model":`), 0o644)
	if _, err := st.Load(); err == nil {
		t.Fatal("torn settings file loaded without error")
	}
}

func TestKeyFileIsPrivate(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "gatehouse")
	st := NewStore(dir)
	if err := st.SaveKey(NewAPIKey("  " + secret + "\n")); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, KeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file mode %v, %v", fi.Mode(), err)
	}
	k, err := st.LoadKey()
	if err != nil || k.Reveal() != secret {
		t.Fatalf("loaded %q, %v", k.Reveal(), err)
	}
	// A key file someone loosened is tightened on load.
	os.Chmod(filepath.Join(dir, KeyFile), 0o644)
	if _, err := st.LoadKey(); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, KeyFile)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode after load %v", fi.Mode())
	}
	// Saving an empty key forgets it.
	if err := st.SaveKey(APIKey{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, KeyFile)); !os.IsNotExist(err) {
		t.Fatalf("key file still there: %v", err)
	}
	if err := st.SaveKey(APIKey{}); err != nil {
		t.Fatalf("forgetting twice: %v", err)
	}
}

func TestSettingsFileNeverHoldsKey(t *testing.T) {
	dir := t.TempDir()
	st := NewStore(dir)
	st.SaveKey(NewAPIKey(secret))
	st.Save(Defaults())
	b, _ := os.ReadFile(filepath.Join(dir, SettingsFile))
	if strings.Contains(string(b), secret) {
		t.Fatal("settings.json holds the key")
	}
}

func TestKeyIsRedactedEverywhere(t *testing.T) {
	k := NewAPIKey(secret)
	var forms []string
	for _, f := range []string{"%s", "%v", "%+v", "%#v", "%q", "%x", "%X", "%10s"} {
		forms = append(forms, fmt.Sprintf(f, k))
	}
	forms = append(forms, fmt.Sprint(k), fmt.Sprintf("%v", Effective{APIKey: k}), fmt.Sprintf("%+v", &Effective{APIKey: k}))
	b, _ := json.Marshal(Effective{APIKey: k})
	forms = append(forms, string(b))
	var logged bytes.Buffer
	slog.New(slog.NewTextHandler(&logged, nil)).Info("x", "key", k)
	slog.New(slog.NewJSONHandler(&logged, nil)).Info("x", "key", k)
	forms = append(forms, logged.String())
	for _, s := range forms {
		if strings.Contains(s, secret) || strings.Contains(s, fmt.Sprintf("%x", secret)) || strings.Contains(s, "0123456789") {
			t.Errorf("key leaked: %s", s)
		}
		if !strings.Contains(s, "redacted") {
			t.Errorf("no redaction marker in %q", s)
		}
	}
	if fmt.Sprint(APIKey{}) != "" {
		t.Error("an empty key should print empty, so the UI can tell it is unset")
	}
}

func env(m map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := m[k]; return v, ok }
}

func TestPrecedenceFlagEnvSavedDefault(t *testing.T) {
	saved := Settings{BaseURL: "http://saved/v1", Model: "saved-model", ApprovalMode: ApprovalAuto, Theme: ThemeDark}
	savedKey := NewAPIKey("saved-key")
	fullEnv := env(map[string]string{EnvBaseURL: "http://env/v1", EnvAPIKey: "env-key"})

	cases := []struct {
		name    string
		saved   Settings
		key     APIKey
		flags   Flags
		getenv  func(string) (string, bool)
		wantURL string
		wantKey string
		want    Sources
	}{
		{"flags win", saved, savedKey, Flags{BaseURL: "http://flag/v1", APIKey: "flag-key", Model: "flag-model"}, fullEnv,
			"http://flag/v1", "flag-key", Sources{FromFlag, FromFlag, FromFlag, FromDefault}},
		{"env over saved", saved, savedKey, Flags{}, fullEnv,
			"http://env/v1", "env-key", Sources{FromEnv, FromEnv, FromSaved, FromDefault}},
		{"saved", saved, savedKey, Flags{}, env(nil),
			"http://saved/v1", "saved-key", Sources{FromSaved, FromSaved, FromSaved, FromDefault}},
		{"empty env is unset", saved, savedKey, Flags{}, env(map[string]string{EnvAPIKey: "", EnvBaseURL: ""}),
			"http://saved/v1", "saved-key", Sources{FromSaved, FromSaved, FromSaved, FromDefault}},
		{"defaults", Defaults(), APIKey{}, Flags{}, env(nil),
			DefaultBaseURL, "", Sources{FromDefault, Unset, Unset, FromDefault}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			eff := Resolve(c.saved, c.key, c.flags, c.getenv)
			if eff.Settings.BaseURL != c.wantURL || eff.APIKey.Reveal() != c.wantKey || eff.Sources != c.want {
				t.Fatalf("got %s %q %+v", eff.Settings.BaseURL, eff.APIKey.Reveal(), eff.Sources)
			}
			if eff.Settings.ApprovalMode != c.saved.ApprovalMode || eff.Settings.Theme != c.saved.Theme {
				t.Fatalf("other settings changed: %+v", eff.Settings)
			}
		})
	}
}

func TestStoreResolve(t *testing.T) {
	st := NewStore(t.TempDir())
	st.Save(Settings{BaseURL: "http://saved/v1", ApprovalMode: ApprovalSafe, Theme: ThemeSystem})
	st.SaveKey(NewAPIKey("saved-key"))
	eff, err := st.Resolve(Flags{}, env(map[string]string{EnvAPIKey: "env-key"}))
	if err != nil {
		t.Fatal(err)
	}
	if eff.APIKey.Reveal() != "env-key" || eff.Sources.APIKey != FromEnv || eff.Sources.BaseURL != FromSaved {
		t.Fatalf("got %+v", eff.Sources)
	}
}

// The API follows the same precedence as the other values, and its source
// is reported; an unknown value from a flag or the environment is an error
// naming where it came from.
func TestAPIPrecedenceAndCheck(t *testing.T) {
	saved := Settings{ApprovalMode: ApprovalSafe, Theme: ThemeSystem, API: APIResponses}
	cases := []struct {
		name   string
		saved  Settings
		flag   string
		env    map[string]string
		want   string
		source Source
	}{
		{"default", Defaults(), "", nil, APIChat, FromDefault},
		{"saved", saved, "", nil, APIResponses, FromSaved},
		{"env over saved", saved, "", map[string]string{EnvAPI: APIChat}, APIChat, FromEnv},
		{"empty env is unset", saved, "", map[string]string{EnvAPI: ""}, APIResponses, FromSaved},
		{"flag over env", saved, APIResponses, map[string]string{EnvAPI: APIChat}, APIResponses, FromFlag},
	}
	for _, c := range cases {
		eff := Resolve(c.saved, APIKey{}, Flags{API: c.flag}, env(c.env))
		if eff.Settings.API != c.want || eff.Sources.API != c.source || eff.Check() != nil {
			t.Errorf("%s: got %q from %q (%v)", c.name, eff.Settings.API, eff.Sources.API, eff.Check())
		}
	}
	eff := Resolve(saved, APIKey{}, Flags{}, env(map[string]string{EnvAPI: "completions"}))
	if err := eff.Check(); err == nil || !strings.Contains(err.Error(), `"completions"`) || !strings.Contains(err.Error(), EnvAPI) {
		t.Errorf("env: %v", err)
	}
	eff = Resolve(saved, APIKey{}, Flags{API: "v2"}, env(nil))
	if err := eff.Check(); err == nil || !strings.Contains(err.Error(), "--api") {
		t.Errorf("flag: %v", err)
	}
	b, _ := json.Marshal(Defaults())
	if strings.Contains(string(b), `"api"`) {
		t.Errorf("an unset API is written: %s", b)
	}
}

// The network mode: the setting, else the older TCP switch, else on.
func TestNetworkModeReadsTheOlderSwitch(t *testing.T) {
	for _, c := range []struct {
		s    Settings
		want string
	}{
		{Settings{}, "on"},
		{Settings{SandboxDenyTCP: true}, "off"},
		{Settings{Network: "allow-list", SandboxDenyTCP: false}, "allow-list"},
		{Settings{Network: "on", SandboxDenyTCP: true}, "on"},
	} {
		if got := c.s.NetworkMode(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}
