package gui

import (
	"gatehouse/internal/instructions"
	"gatehouse/internal/skills"
)

// ToldView is "what the model was told" by files in the open session: the
// instruction files read (the user's and the root's AGENTS.md or CLAUDE.md
// in the system prompt, a subfolder's when the model first worked on a
// file below it, CLAUDE.md's @imports followed or refused), the skills
// catalog as the skill tool's description carries it, and the skills
// loaded with their instructions.
type ToldView struct {
	// Session is false while no session is open (nothing was told yet).
	Session bool `json:"session"`
	// Instructions are the files read, in the order read.
	Instructions []instructions.File `json:"instructions"`
	// Catalog is the skills catalog as the model reads it ("": no skill
	// offered, so no skill tool).
	Catalog string `json:"catalog"`
	// Offered names the skills offered; Excess those past the catalog's
	// bound, named without their descriptions.
	Offered []string `json:"offered"`
	Excess  []string `json:"excess"`
	// Bound is the catalog's bound in characters.
	Bound int `json:"bound"`
	// Loaded are the skills loaded in the session, with their
	// instructions, in the order loaded.
	Loaded []skills.Activation `json:"loaded"`
}

// Told lists what the model of the open session was told by files.
func (a *App) Told() ToldView {
	v := ToldView{Instructions: []instructions.File{}, Offered: []string{}, Excess: []string{}, Loaded: []skills.Activation{},
		Bound: skills.MaxCatalogChars}
	s := a.currentSession()
	if s == nil {
		return v
	}
	v.Session = true
	if files := s.Instructions(); files != nil {
		v.Instructions = files
	}
	if c := skills.Of(s.Providers()); c != nil {
		v.Catalog, v.Excess = c.Sent()
		if v.Excess == nil {
			v.Excess = []string{}
		}
		v.Offered = append(v.Offered, c.Names()...)
		v.Loaded = append(v.Loaded, c.Loaded()...)
	}
	return v
}
