package gui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"gatehouse/internal/llm"
	"gatehouse/internal/settings"
)

// listModelsTimeout bounds ListModels: the header's menu waits on it.
const listModelsTimeout = 5 * time.Second

// ListModels returns the ids of the models the configured server lists,
// sorted. A failure says in words what went wrong (unreachable, key
// refused, no model list), as the model client words it.
func (a *App) ListModels() ([]string, error) {
	eff := a.effective()
	ctx, cancel := context.WithTimeout(context.Background(), listModelsTimeout)
	defer cancel()
	ids, err := llm.ListModels(ctx, llm.API(eff.Settings.API), eff.Settings.BaseURL, eff.APIKey.Reveal())
	if err != nil {
		return []string{}, err
	}
	return ids, nil
}

// SetModel saves name as the model, as the settings screen does, and
// returns the new state. The running turn keeps its model; the next model
// request uses the new one. A --model flag wins over the saved model, so
// while one is given SetModel refuses rather than save a choice that would
// not apply.
func (a *App) SetModel(name string) (AppState, error) {
	name = strings.TrimSpace(name)
	if name == "" {
		return a.State(), errors.New("name a model")
	}
	if eff := a.effective(); eff.Sources.Model == settings.FromFlag {
		return a.State(), fmt.Errorf("the model %s was chosen with --model when Gatehouse started; start it without --model to switch models", eff.Settings.Model)
	}
	s, err := a.store.Load()
	if err != nil {
		s = settings.Defaults()
	}
	s.Model = name
	if err := s.Validate(); err != nil {
		return a.State(), err
	}
	if err := a.store.Save(s); err != nil {
		return a.State(), fmt.Errorf("could not save the model: %w", err)
	}
	return a.State(), nil
}

// ContextWindow is the context window the next turn's model request will
// have, for the header's gauge before the first turn: the model server's or
// the known model's figure, else the saved setting, else the default. It may
// ask the server (/models, once per model, bounded like ListModels).
func (a *App) ContextWindow() llm.Window {
	ctx, cancel := context.WithTimeout(context.Background(), listModelsTimeout)
	defer cancel()
	if w := a.model.ContextWindow(ctx); w.Tokens > 0 {
		return w
	}
	if n := a.effective().Settings.ContextWindow; n > 0 {
		return llm.Window{Tokens: n, Source: llm.WindowSetting}
	}
	return llm.Window{Tokens: llm.DefaultWindow, Source: llm.WindowDefault}
}
