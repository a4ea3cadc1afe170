package settings

import "fmt"

// Teams are the settings of agent teams (experimental; package team).
type Teams struct {
	// On turns teams on for every session opened after it is saved; off,
	// a session turns them on itself (/experimental teams, exec's
	// --experimental teams, an ACP session option).
	On bool `json:"on,omitempty"`
	// MaxTeammates bounds the teammates of a session; 0: 4.
	MaxTeammates int `json:"maxTeammates,omitempty"`
	// MaxWakes bounds how often a message may wake each teammate (and
	// the lead) between two of the user's prompts; 0: 8.
	MaxWakes int `json:"maxWakes,omitempty"`
	// MaxMessages bounds the messages the team sends between two of the
	// user's prompts; 0: 40.
	MaxMessages int `json:"maxMessages,omitempty"`
	// MaxSteps bounds each turn of a teammate whose definition sets
	// none; 0: the agent's default.
	MaxSteps int `json:"maxSteps,omitempty"`
}

// Default bounds of Teams.
const (
	DefaultMaxTeammates = 4
	DefaultMaxWakes     = 8
	DefaultMaxMessages  = 40
)

// Limits are t's bounds with the defaults filled in.
func (t Teams) Limits() Teams {
	if t.MaxTeammates == 0 {
		t.MaxTeammates = DefaultMaxTeammates
	}
	if t.MaxWakes == 0 {
		t.MaxWakes = DefaultMaxWakes
	}
	if t.MaxMessages == 0 {
		t.MaxMessages = DefaultMaxMessages
	}
	return t
}

// validate refuses negative bounds.
func (t Teams) validate() error {
	for _, v := range []struct {
		name string
		n    int
	}{{"teammates", t.MaxTeammates}, {"wakes", t.MaxWakes}, {"messages", t.MaxMessages}, {"steps", t.MaxSteps}} {
		if v.n < 0 {
			return fmt.Errorf("settings: teams: max %s %d is negative", v.name, v.n)
		}
	}
	return nil
}
