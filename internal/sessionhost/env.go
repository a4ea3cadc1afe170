package sessionhost

import (
	"errors"
	"fmt"
	"os"

	"gatehouse/internal/llm"
	"gatehouse/internal/proc"
	"gatehouse/internal/runtime"
	"gatehouse/internal/session"
	"gatehouse/internal/settings"
	"gatehouse/internal/tools"
)

// Env is what a host's surroundings give the sessions it opens: folders,
// the environment, the processes' environment. Hosts and tests fill it;
// the window's, exec's and ACP's differ only in these values.
type Env struct {
	// ConfigDir is the settings folder (settings.DefaultDir): the user's
	// MCP servers, agent definitions and trust decisions live there.
	ConfigDir string
	// DataDir holds the session logs, the checkpoint store and the
	// supervisor's ledger (session.DefaultDir); empty: sessions are not
	// saved and cannot be undone.
	DataDir string
	// LookupEnv reads OPENAI_API_KEY, OPENAI_BASE_URL, GATEHOUSE_API and
	// GATEHOUSE_APPROVAL (os.LookupEnv; nil: none is set).
	LookupEnv func(string) (string, bool)
	// MaxRetries bounds the retries of a failed model request (the app
	// uses llm.DefaultMaxRetries; tests 0).
	MaxRetries int
	// ProcEnv is the environment of the processes tools start and of MCP
	// servers (nil: the login shell's, read once).
	ProcEnv func() []string
	// Policy limits the sessions' tools (zero: all, the main agent's).
	Policy tools.Policy
	// OnSession, when set, hears each session the recipe opened, before
	// it is handed to the host (tests look at what it was assembled from).
	OnSession func(*runtime.Session)
	// Version is the build's, reported to MCP servers and editors.
	Version string
}

// DefaultEnv is the environment of a headless command (exec, acp, mcp).
func DefaultEnv() (Env, error) {
	cfg, err := settings.DefaultDir()
	if err != nil {
		return Env{}, err
	}
	data, _ := session.DefaultDir() // no data folder: not saved
	return Env{ConfigDir: cfg, DataDir: data, LookupEnv: os.LookupEnv, MaxRetries: llm.DefaultMaxRetries,
		ProcEnv: (&proc.LoginEnv{}).Environ}, nil
}

func (e Env) lookup(name string) (string, bool) {
	if e.LookupEnv == nil {
		return "", false
	}
	return e.LookupEnv(name)
}

// ApprovalDefault is the approval mode a host starts in when its command
// line does not say: GATEHOUSE_APPROVAL when set, else safe.
func (e Env) ApprovalDefault() string {
	if v, ok := e.lookup("GATEHOUSE_APPROVAL"); ok && v != "" {
		return v
	}
	return settings.ApprovalSafe
}

// ErrReadSettings marks a saved settings file that could not be read (a
// failure, not a usage mistake).
var ErrReadSettings = errors.New("reading the settings")

// OpenModel resolves the model settings of a headless command (flags, then
// the environment, then the saved settings) and opens the model client.
// Any error but ErrReadSettings is a usage mistake (no model, a bad API).
func OpenModel(env Env, f settings.Flags) (*llm.Client, settings.Effective, error) {
	eff, err := settings.NewStore(env.ConfigDir).Resolve(f, env.lookup)
	if err != nil {
		return nil, eff, fmt.Errorf("%w: %w", ErrReadSettings, err)
	}
	if err := eff.Check(); err != nil {
		return nil, eff, err
	}
	if eff.Settings.Model == "" {
		return nil, eff, errors.New("no model: pass --model or choose one in the app's settings")
	}
	client, err := llm.New(ModelConfig(eff, env.MaxRetries))
	return client, eff, err
}

// ModelConfig is the model client's configuration the settings eff say.
func ModelConfig(eff settings.Effective, maxRetries int) llm.Config {
	return llm.Config{API: llm.API(eff.Settings.API), BaseURL: eff.Settings.BaseURL, APIKey: eff.APIKey.Reveal(),
		Model: eff.Settings.Model, MaxRetries: maxRetries}
}
