package cli

import (
	"errors"
	"fmt"

	"gatehouse/internal/llm"
	"gatehouse/internal/settings"
)

// ErrReadSettings marks a saved settings file that could not be read (a
// failure, not a usage mistake).
var ErrReadSettings = errors.New("reading the settings")

// OpenModel resolves the model settings of a headless command (flags, then
// the environment, then the saved settings) and opens the model client.
// Any error but ErrReadSettings is a usage mistake (no model, a bad API).
func OpenModel(env ExecEnv, f settings.Flags) (*llm.Client, settings.Effective, error) {
	lookup := env.LookupEnv
	if lookup == nil {
		lookup = func(string) (string, bool) { return "", false }
	}
	eff, err := settings.NewStore(env.ConfigDir).Resolve(f, lookup)
	if err != nil {
		return nil, eff, fmt.Errorf("%w: %w", ErrReadSettings, err)
	}
	if err := eff.Check(); err != nil {
		return nil, eff, err
	}
	if eff.Settings.Model == "" {
		return nil, eff, errors.New("no model: pass --model or choose one in the app's settings")
	}
	client, err := llm.New(llm.Config{API: llm.API(eff.Settings.API), BaseURL: eff.Settings.BaseURL,
		APIKey: eff.APIKey.Reveal(), Model: eff.Settings.Model, MaxRetries: env.MaxRetries})
	return client, eff, err
}
