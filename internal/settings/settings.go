// Package settings loads and saves the user's settings and API key, and
// resolves what is in effect: command-line flag > environment
// (OPENAI_API_KEY, OPENAI_BASE_URL, GATEHOUSE_API) > saved settings > default, reporting
// where each value came from.
//
// Storage, in one folder (default os.UserConfigDir()/gatehouse, mode 0700):
// settings.json (0644) and api-key (0600, the key alone). Every write goes
// to a temporary file in the same folder, is synced and renamed into place,
// so a crash leaves the old file or the new one, never half of one.
//
// The key is an APIKey, whose every printed, JSON or slog form is redacted;
// Reveal is the one way to get the text, for the model client.
package settings

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"gatehouse/internal/atomicfile"
	"gatehouse/internal/protocol"
)

// Names of the files in the settings folder.
const (
	SettingsFile = "settings.json"
	KeyFile      = "api-key"
)

// Approval modes, themes and model APIs.
const (
	ApprovalManual = string(protocol.ApprovalManual)
	ApprovalSafe   = string(protocol.ApprovalSafe)
	ApprovalAuto   = string(protocol.ApprovalAuto)

	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"

	// APIChat is Chat Completions, which every OpenAI-compatible server
	// speaks; APIResponses is OpenAI's Responses API. The strings are
	// package llm's API values.
	APIChat      = "chat"
	APIResponses = "responses"
)

// DefaultBaseURL is used when neither flag, environment nor saved settings
// name a model server.
const DefaultBaseURL = "https://api.openai.com/v1"

// Settings are the saved preferences. The API key is not among them.
type Settings struct {
	BaseURL       string `json:"baseURL"`
	Model         string `json:"model"`
	ApprovalMode  string `json:"approvalMode"`
	Theme         string `json:"theme"`
	LastWorkspace string `json:"lastWorkspace"`
	// RecentWorkspaces lists workspace folders, most recent first.
	RecentWorkspaces []string `json:"recentWorkspaces,omitempty"`
	// ContextWindow is the model's context window in tokens, used when
	// neither the model server's /models nor Gatehouse's table of known
	// models says; 0: 128,000. A new value applies to sessions opened after
	// it is saved.
	ContextWindow int `json:"contextWindow,omitempty"`
	// MicroCompactAt and CompactAt are how full the context window may get,
	// in percent, before old tool outputs are cleared from what the model
	// is sent, and before older turns are replaced by a checkpoint summary;
	// 0: 70 and 85.
	MicroCompactAt int `json:"microCompactAt,omitempty"`
	CompactAt      int `json:"compactAt,omitempty"`
	// API is the protocol spoken to the model server, APIChat or
	// APIResponses; "": APIChat.
	API string `json:"api,omitempty"`
	// Sandbox is how shell commands are confined: "workspace-write" (the
	// default, "") or "off". The model cannot change it.
	Sandbox string `json:"sandbox,omitempty"`
	// SandboxDenyTCP turns the network off for confined commands: TCP,
	// MPTCP and UDP (the name is older than the network namespace).
	SandboxDenyTCP bool `json:"sandboxDenyTCP,omitempty"`
	// Network is the network of confined commands and web_fetch: "on",
	// "off" or "allow-list" (netproxy.Mode*); "": on, or off when the
	// older SandboxDenyTCP is set (NetworkMode).
	Network string `json:"network,omitempty"`
	// NetworkAllow are the domains reached in allow-list mode (a name, or
	// "*." and a name for the names below it).
	NetworkAllow []string `json:"networkAllow,omitempty"`
	// SandboxDenyRead is the list of paths confined commands cannot read
	// ("~/" is the home folder); nil: sandbox.DefaultDenyRead.
	SandboxDenyRead []string `json:"sandboxDenyRead,omitempty"`
	// SkillsClaude adds Claude Code's ~/.claude/skills as a source of
	// skills (off by default); SkillsOff are the skills the user turned
	// off, by name.
	SkillsClaude bool     `json:"skillsClaude,omitempty"`
	SkillsOff    []string `json:"skillsOff,omitempty"`
	// HooksOff are the hooks the user turned off in Settings → Hooks, by
	// id (hooks.Hook.ID): listed, never run.
	HooksOff []string `json:"hooksOff,omitempty"`
	// SandboxSockets lists the Unix sockets confined commands may reach
	// (absolute paths, or $NAME for the path in a variable such as
	// $SSH_AUTH_SOCK); empty: none.
	SandboxSockets []string `json:"sandboxSockets,omitempty"`
	// Prices are prices set by the user, by model name; they win over
	// the built-in list prices and over "local servers are free".
	Prices map[string]Price `json:"prices,omitempty"`
	// Budget are the spending, token and calls-per-minute limits of
	// every session and of the day (package budget); zero: none.
	Budget protocol.BudgetLimits `json:"budget,omitempty"`
	// Teams are the bounds of agent teams and whether new sessions have
	// them on (teams.go).
	Teams Teams `json:"teams,omitempty"`
	// UndoStoreMiB bounds the undo store (prior contents of the files
	// sessions changed, in the data folder) in MiB; 0: 1024 (1 GiB). Older
	// sessions' checkpoints are pruned first.
	UndoStoreMiB int `json:"undoStoreMiB,omitempty"`
	// PanelWidths are the widths the user dragged the window's side panels
	// to (panels.go).
	PanelWidths map[string]int `json:"panelWidths,omitempty"`
	// Vision says, by model name, whether a model can see images, for
	// models neither the server's /models nor Gatehouse's table of known
	// models speaks of (llm.ResolveVision).
	Vision map[string]bool `json:"vision,omitempty"`
	// CommitTrailer, when set ("Assisted-by: Gatehouse"), is added to every
	// commit made in the Changes view; "": none is added.
	CommitTrailer string `json:"commitTrailer,omitempty"`
	// WorktreeCopy lists untracked files (repository-relative, like
	// ".env") copied into each new worktree session.
	WorktreeCopy []string `json:"worktreeCopy,omitempty"`
	// LanguageServers configures the language servers by name
	// (languages.go); the built-in ones run when found on PATH.
	LanguageServers map[string]LanguageServer `json:"languageServers,omitempty"`
}

// NetworkMode is the network mode in effect: Network, else "off" when the
// older SandboxDenyTCP says so, else "on".
func (s Settings) NetworkMode() string {
	switch {
	case s.Network != "":
		return s.Network
	case s.SandboxDenyTCP:
		return "off"
	}
	return "on"
}

// VisionOf is the Vision setting of model, nil when none.
func (s Settings) VisionOf(model string) *bool {
	if v, ok := s.Vision[model]; ok {
		return &v
	}
	return nil
}

// UndoStoreBytes is the undo store's bound in bytes (0: the default).
func (s Settings) UndoStoreBytes() int64 { return int64(s.UndoStoreMiB) << 20 }

// Defaults returns the settings of a first run.
func Defaults() Settings {
	return Settings{ApprovalMode: ApprovalSafe, Theme: ThemeSystem}
}

// Validate reports the first field with a value it does not know.
func (s Settings) Validate() error {
	if !validMode(s.ApprovalMode) {
		return fmt.Errorf("settings: approval mode %q is not plan, manual, safe or auto", s.ApprovalMode)
	}
	if !validTheme(s.Theme) {
		return fmt.Errorf("settings: theme %q is not system, light or dark", s.Theme)
	}
	for panel, w := range s.PanelWidths {
		if err := checkPanelWidth(panel, w); err != nil {
			return fmt.Errorf("settings: %w", err)
		}
	}
	if s.UndoStoreMiB < 0 {
		return fmt.Errorf("settings: undo store size %d MiB is negative", s.UndoStoreMiB)
	}
	if err := s.Context().Validate(); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if !ValidAPI(s.API) {
		return fmt.Errorf("settings: API %q is not chat or responses", s.API)
	}
	if s.Sandbox != "" && s.Sandbox != "workspace-write" && s.Sandbox != "off" {
		return fmt.Errorf("settings: sandbox %q is not workspace-write or off", s.Sandbox)
	}
	if s.Network != "" && s.Network != "on" && s.Network != "off" && s.Network != "allow-list" {
		return fmt.Errorf("settings: network %q is not on, off or allow-list", s.Network)
	}
	for model, p := range s.Prices {
		if err := p.Validate(); err != nil {
			return fmt.Errorf("settings: price of %s: %w", model, err)
		}
	}
	if err := ValidateBudget(s.Budget); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := s.Teams.validate(); err != nil {
		return err
	}
	if err := checkTrailer(s.CommitTrailer); err != nil {
		return fmt.Errorf("settings: %w", err)
	}
	if err := validateLanguageServers(s.LanguageServers); err != nil {
		return err
	}
	if s.BaseURL != "" && !strings.HasPrefix(s.BaseURL, "http://") && !strings.HasPrefix(s.BaseURL, "https://") {
		return fmt.Errorf("settings: base URL %q does not start with http:// or https://", s.BaseURL)
	}
	return nil
}

func validMode(m string) bool {
	_, err := protocol.ParseApprovalMode(m)
	return err == nil
}

func validTheme(t string) bool {
	return t == ThemeSystem || t == ThemeLight || t == ThemeDark
}

// ValidAPI reports whether a is APIChat, APIResponses or "" (APIChat).
func ValidAPI(a string) bool {
	return a == "" || a == APIChat || a == APIResponses
}

// APIKey is a secret. It prints, marshals and logs as "[redacted]" (or ""
// when empty); call Reveal to use it.
type APIKey struct{ v string }

// NewAPIKey wraps a key; surrounding white space is trimmed.
func NewAPIKey(s string) APIKey { return APIKey{strings.TrimSpace(s)} }

// Reveal returns the key's text. Pass it to the model client, nowhere else.
func (k APIKey) Reveal() string { return k.v }

// IsSet reports whether the key is non-empty.
func (k APIKey) IsSet() bool { return k.v != "" }

const redacted = "[redacted]"

func (k APIKey) show() string {
	if k.v == "" {
		return ""
	}
	return redacted
}

// String redacts.
func (k APIKey) String() string { return k.show() }

// GoString redacts.
func (k APIKey) GoString() string { return "settings.APIKey(" + k.show() + ")" }

// Format redacts under every verb, %x and %q included.
func (k APIKey) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') {
		fmt.Fprint(f, k.GoString())
		return
	}
	fmt.Fprint(f, k.show())
}

// MarshalJSON redacts.
func (k APIKey) MarshalJSON() ([]byte, error) { return json.Marshal(k.show()) }

// LogValue redacts.
func (k APIKey) LogValue() slog.Value { return slog.StringValue(k.show()) }

// Store reads and writes the settings folder.
type Store struct {
	dir string
}

// DefaultDir is os.UserConfigDir()/gatehouse.
func DefaultDir() (string, error) {
	base, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(base, "gatehouse"), nil
}

// NewStore returns a Store for dir (tests pass a temporary folder).
func NewStore(dir string) *Store { return &Store{dir: dir} }

// Dir is the settings folder.
func (s *Store) Dir() string { return s.dir }

// Load returns the saved settings over the defaults. A missing file is a
// first run, not an error. Fields with unknown values fall back to defaults.
func (s *Store) Load() (Settings, error) {
	out := Defaults()
	b, err := os.ReadFile(filepath.Join(s.dir, SettingsFile))
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return out, err
	}
	if err := json.Unmarshal(b, &out); err != nil {
		return Defaults(), fmt.Errorf("settings: %s: %w", SettingsFile, err)
	}
	if !validMode(out.ApprovalMode) {
		out.ApprovalMode = ApprovalSafe
	}
	if !validTheme(out.Theme) {
		out.Theme = ThemeSystem
	}
	if (ContextLimits{Window: out.ContextWindow}).Validate() != nil {
		out.ContextWindow = 0
	}
	if out.Sandbox != "" && out.Sandbox != "workspace-write" && out.Sandbox != "off" {
		out.Sandbox = "" // an unknown mode confines: the safe side
	}
	if !protocol.ValidCompactAt(out.MicroCompactAt) {
		out.MicroCompactAt = 0
	}
	if !protocol.ValidCompactAt(out.CompactAt) {
		out.CompactAt = 0
	}
	if out.Context().Validate() != nil { // the summary's threshold not above the clearing's
		out.MicroCompactAt, out.CompactAt = 0, 0
	}
	if !ValidAPI(out.API) {
		out.API = ""
	}
	maps.DeleteFunc(out.PanelWidths, func(panel string, w int) bool { return checkPanelWidth(panel, w) != nil })
	return out, nil
}

// Save validates and writes the settings atomically.
func (s *Store) Save(v Settings) error {
	if err := v.Validate(); err != nil {
		return err
	}
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if err := s.mkdir(); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(s.dir, SettingsFile), append(b, '\n'), 0o644)
}

// LoadKey returns the saved key, or an empty key when none is saved. A key
// file others can read is tightened to 0600.
func (s *Store) LoadKey() (APIKey, error) {
	path := filepath.Join(s.dir, KeyFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return APIKey{}, nil
	}
	if err != nil {
		return APIKey{}, err
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm()&0o077 != 0 {
		if err := os.Chmod(path, 0o600); err != nil {
			return APIKey{}, err
		}
	}
	return NewAPIKey(string(b)), nil
}

// SaveKey writes the key atomically with mode 0600; an empty key removes
// the file.
func (s *Store) SaveKey(k APIKey) error {
	path := filepath.Join(s.dir, KeyFile)
	if !k.IsSet() {
		err := os.Remove(path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if err := s.mkdir(); err != nil {
		return err
	}
	return atomicfile.Write(path, []byte(k.v+"\n"), 0o600)
}

// mkdir creates the folder with mode 0700 and tightens an existing one.
func (s *Store) mkdir() error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	return os.Chmod(s.dir, 0o700)
}

// maxRecent is how many workspace folders RememberWorkspace keeps.
const maxRecent = 10

// RememberWorkspace makes dir the last workspace and the first of the
// recent ones, keeping at most ten, each once.
func (s *Settings) RememberWorkspace(dir string) {
	recent := []string{dir}
	for _, w := range s.RecentWorkspaces {
		if w != dir && len(recent) < maxRecent {
			recent = append(recent, w)
		}
	}
	s.LastWorkspace, s.RecentWorkspaces = dir, recent
}

// Update applies change to the saved settings (the defaults when they
// cannot be read) and saves them, unless nothing changed: no write, and no
// fsync, on every start.
func (s *Store) Update(change func(*Settings)) error {
	v, err := s.Load()
	if err != nil {
		v = Defaults()
	}
	before := v
	before.RecentWorkspaces = slices.Clone(v.RecentWorkspaces)
	before.PanelWidths = maps.Clone(v.PanelWidths)
	change(&v)
	if err == nil && reflect.DeepEqual(before, v) {
		return nil
	}
	return s.Save(v)
}

// checkTrailer accepts "" or one "Key: value" line.
func checkTrailer(t string) error {
	if t == "" {
		return nil
	}
	key, value, ok := strings.Cut(t, ":")
	if !ok || strings.TrimSpace(value) == "" || strings.ContainsAny(t, "\r\n") || key == "" || strings.ContainsAny(key, " \t") {
		return fmt.Errorf("commit trailer %q is not one \"Key: value\" line", t)
	}
	return nil
}
