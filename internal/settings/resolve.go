package settings

import "os"

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

// Environment variables read by Resolve.
const (
	EnvAPIKey  = "OPENAI_API_KEY"
	EnvBaseURL = "OPENAI_BASE_URL"
)

// Flags are values given on the command line; empty means not given.
type Flags struct {
	BaseURL string
	APIKey  string
	Model   string
}

// Sources tells, per value, where the effective one came from.
type Sources struct {
	BaseURL Source `json:"baseURL"`
	APIKey  Source `json:"apiKey"`
	Model   Source `json:"model"`
}

// Effective is what is in effect after precedence.
type Effective struct {
	Settings Settings // BaseURL and Model are the effective values
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
	var key string
	key, eff.Sources.APIKey = pick(flags.APIKey, env(EnvAPIKey), savedKey.Reveal(), "")
	eff.APIKey = NewAPIKey(key)
	return eff
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
