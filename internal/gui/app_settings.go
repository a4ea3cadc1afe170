package gui

import (
	"context"
	"fmt"
	"os"

	"gatehouse/internal/llm"
	"gatehouse/internal/settings"
)

// SettingsView is what the settings screen shows. The key itself never
// leaves the backend: only whether one is set and where it comes from.
type SettingsView struct {
	BaseURL string `json:"baseURL"`
	Model   string `json:"model"`
	HasKey  bool   `json:"hasKey"`
	Theme   string `json:"theme"`
	// API is the model API in effect: "chat" or "responses".
	API     string           `json:"api"`
	Sources settings.Sources `json:"sources"`
	// Price is the model's price per million tokens; PriceSource says
	// where it comes from ("saved", "local", "builtin", "": none).
	Price       settings.Price `json:"price"`
	PriceSource string         `json:"priceSource"`
	// Context is the saved context window and compaction thresholds
	// (0: detect, the defaults).
	Context settings.ContextLimits `json:"context"`
}

// SettingsInput is what the settings screen sends. An empty APIKey keeps the
// saved key; ClearKey removes it.
type SettingsInput struct {
	BaseURL  string `json:"baseURL"`
	Model    string `json:"model"`
	APIKey   string `json:"apiKey"`
	ClearKey bool   `json:"clearKey"`
	Theme    string `json:"theme"`
	// API is "chat" or "responses"; "" keeps the saved one.
	API string `json:"api"`
	// Price, when set, is saved as Model's price; ClearPrice removes a
	// saved one (the model is then priced as if none was ever set).
	Price      *settings.Price `json:"price,omitempty"`
	ClearPrice bool            `json:"clearPrice,omitempty"`
	// Context, when set, replaces the context settings; nil keeps them.
	// A bad value is refused with a *settings.FieldError.
	Context *settings.ContextLimits `json:"context,omitempty"`
	// SendKey confirms sending the key in effect to a base URL other than
	// its own (TestConnection never sends it there otherwise, and
	// SaveSettings refuses to keep it for another one).
	SendKey bool `json:"sendKey"`
}

func keyRequest(in SettingsInput) settings.KeyRequest {
	return settings.KeyRequest{BaseURL: in.BaseURL, Typed: in.APIKey, Clear: in.ClearKey, SendToOther: in.SendKey}
}

func (a *App) effective() settings.Effective {
	eff, err := a.store.Resolve(a.flags, os.LookupEnv)
	if err != nil {
		a.log.Warn("settings", "err", err)
	}
	return eff
}

// GetSettings returns the settings in effect and where each comes from.
func (a *App) GetSettings() SettingsView {
	eff := a.effective()
	price, source := eff.Settings.PriceOf()
	return SettingsView{BaseURL: eff.Settings.BaseURL, Model: eff.Settings.Model, HasKey: eff.APIKey.IsSet(),
		Theme: eff.Settings.Theme, API: eff.Settings.API, Sources: eff.Sources, Price: price, PriceSource: source, Context: eff.Settings.Context()}
}

// SaveSettings saves the screen's values. A value given by a flag or the
// environment still wins over the saved one; the view says so. A new base
// URL with the saved key kept needs SendKey: the key was saved for the old
// one (settings.KeyFor).
func (a *App) SaveSettings(in SettingsInput) (SettingsView, error) {
	s, err := a.store.Load()
	if err != nil {
		s = settings.Defaults()
	}
	s.BaseURL, s.Model = in.BaseURL, in.Model
	if in.Theme != "" {
		s.Theme = in.Theme
	}
	if in.API != "" {
		s.API = in.API
	}
	s.Prices = settings.SetPrice(s.Prices, in.Model, in.Price, in.ClearPrice)
	if in.Context != nil {
		if err := in.Context.Validate(); err != nil {
			return a.GetSettings(), err
		}
		s.SetContext(*in.Context)
	}
	if err := s.Validate(); err != nil {
		return a.GetSettings(), err
	}
	if _, err := llm.New(llm.Config{BaseURL: in.BaseURL}); err != nil {
		return a.GetSettings(), err
	}
	if eff := a.effective(); eff.Sources.APIKey == settings.FromSaved {
		if _, withheld := eff.KeyFor(keyRequest(in)); withheld != nil {
			return a.GetSettings(), withheld
		}
	}
	if err := a.store.Save(s); err != nil {
		return a.GetSettings(), fmt.Errorf("could not save settings: %w", err)
	}
	switch {
	case in.ClearKey:
		err = a.store.SaveKey(settings.NewAPIKey(""))
	case in.APIKey != "":
		err = a.store.SaveKey(settings.NewAPIKey(in.APIKey))
	}
	if err != nil {
		return a.GetSettings(), fmt.Errorf("could not save the API key: %w", err)
	}
	return a.GetSettings(), nil
}

// TestConnection checks the screen's values against the server: reachable,
// key rejected, model unknown, or unreachable. An empty API uses the one in
// effect; an empty key uses the one in effect only for its own base URL, or
// where the user confirmed sending it (settings.KeyFor).
func (a *App) TestConnection(in SettingsInput) llm.ConnectionResult {
	eff := a.effective()
	key, withheld := eff.KeyFor(keyRequest(in))
	api := in.API
	if api == "" {
		api = eff.Settings.API
	}
	return llm.TestConnection(context.Background(), llm.API(api), in.BaseURL, key.Reveal(), in.Model).WithoutKey(withheld)
}

// ModelPrice is one model's price per million tokens and where it comes
// from ("saved", "local", "builtin", "": none), for pricing each turn at
// the model that ran it.
type ModelPrice struct {
	Model  string         `json:"model"`
	Price  settings.Price `json:"price"`
	Source string         `json:"source"`
}

// Prices returns the price of each of models at the base URL in effect,
// in the order given.
func (a *App) Prices(models []string) []ModelPrice {
	s := a.effective().Settings
	out := make([]ModelPrice, 0, len(models))
	for _, m := range models {
		s.Model = m
		p, source := s.PriceOf()
		out = append(out, ModelPrice{Model: m, Price: p, Source: source})
	}
	return out
}
