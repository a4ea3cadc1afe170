package settings

import (
	"fmt"
	"os"
)

// Source says where an effective value came from.
type Source string

const (
	FromFlag    Source = "flag"
	FromEnv     Source = "env"
	FromSaved   Source = "saved"
	FromDefault Source = "default"
	// Unset: no source gave a value.
	Unset Source = ""
)

// EnumValues lists the values, for the TypeScript generator.
func (Source) EnumValues() []string {
	return []string{string(FromFlag), string(FromEnv), string(FromSaved), string(FromDefault), string(Unset)}
}

// Environment variables read by Resolve.
const (
	EnvAPIKey  = "OPENAI_API_KEY"
	EnvBaseURL = "OPENAI_BASE_URL"
	// EnvAPI chooses the API (chat or responses), for a shell that
	// points OPENAI_BASE_URL at a server speaking only one of them.
	EnvAPI = "GATEHOUSE_API"
)

// Flags are values given on the command line; empty means not given.
type Flags struct {
	BaseURL string
	APIKey  string
	Model   string
	API     string
}

// Sources tells, per value, where the effective one came from.
type Sources struct {
	BaseURL Source `json:"baseURL"`
	APIKey  Source `json:"apiKey"`
	Model   Source `json:"model"`
	API     Source `json:"api"`
}

// Effective is what is in effect after precedence.
type Effective struct {
	Settings Settings // BaseURL, Model and API are the effective values
	APIKey   APIKey
	Sources  Sources
}

// Resolve applies flag > environment > saved > default. getenv looks up an
// environment variable (os.LookupEnv; tests pass a map); a variable that is
// set but empty counts as not set.
func Resolve(saved Settings, savedKey APIKey, flags Flags, getenv func(string) (string, bool)) Effective {
	if getenv == nil {
		getenv = os.LookupEnv
	}
	env := func(name string) string {
		v, _ := getenv(name)
		return v
	}
	eff := Effective{Settings: saved}
	eff.Settings.BaseURL, eff.Sources.BaseURL = pick(flags.BaseURL, env(EnvBaseURL), saved.BaseURL, DefaultBaseURL)
	eff.Settings.Model, eff.Sources.Model = pick(flags.Model, "", saved.Model, "")
	eff.Settings.API, eff.Sources.API = pick(flags.API, env(EnvAPI), saved.API, APIChat)
	var key string
	key, eff.Sources.APIKey = pick(flags.APIKey, env(EnvAPIKey), savedKey.Reveal(), "")
	eff.APIKey = NewAPIKey(key)
	return eff
}

// Check reports an effective value that is not one Gatehouse knows, naming
// where it came from. Saved values are checked when saved and repaired when
// loaded; a flag or the environment can still name an unknown API.
func (e Effective) Check() error {
	if !ValidAPI(e.Settings.API) {
		where := map[Source]string{FromFlag: "--api", FromEnv: EnvAPI}[e.Sources.API]
		if where == "" {
			where = string(e.Sources.API)
		}
		return fmt.Errorf("the API %q (from %s) is not chat or responses", e.Settings.API, where)
	}
	return nil
}

func pick(flag, env, saved, def string) (string, Source) {
	switch {
	case flag != "":
		return flag, FromFlag
	case env != "":
		return env, FromEnv
	case saved != "":
		return saved, FromSaved
	case def != "":
		return def, FromDefault
	}
	return "", Unset
}

// Resolve loads the saved settings and key and applies Resolve.
func (s *Store) Resolve(flags Flags, getenv func(string) (string, bool)) (Effective, error) {
	saved, err := s.Load()
	if err != nil {
		return Effective{}, err
	}
	key, err := s.LoadKey()
	if err != nil {
		return Effective{}, err
	}
	return Resolve(saved, key, flags, getenv), nil
}
