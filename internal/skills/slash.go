package skills

import "slices"

// SlashEntry is a skill in the composer's "/" menu.
type SlashEntry struct {
	Name        string
	Description string
	Dir         string
	// ShadowedBy is set when a built-in or a user's command has the name:
	// the menu shows the entry, and /name runs the command.
	ShadowedBy string
}

// Slash is the "/" menu's skills beside taken, the names of the built-in
// commands and then the user's own (in that order of precedence, both
// above skills): built-ins win a clash, then the user's commands, then
// skills; a shadowed skill is listed saying what shadows it.
func Slash(builtins, commands []string, offered []Skill) []SlashEntry {
	out := make([]SlashEntry, 0, len(offered))
	for _, k := range offered {
		e := SlashEntry{Name: k.Name, Description: k.Description, Dir: k.Dir}
		switch {
		case slices.Contains(builtins, k.Name):
			e.ShadowedBy = "the built-in /" + k.Name
		case slices.Contains(commands, k.Name):
			e.ShadowedBy = "your command /" + k.Name
		}
		out = append(out, e)
	}
	return out
}
