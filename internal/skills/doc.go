// Package skills finds Agent Skills (agentskills.io: a folder holding a
// SKILL.md with YAML front matter, name and description, and optional
// scripts/, references/, assets/) and offers them to the model through one
// tool, skill, whose name argument is an enum of the catalog.
//
// Sources, lowest precedence first (a later skill of the same name wins;
// the list says which it shadows): Claude Code's ~/.claude/skills when the
// user turned it on, Gatehouse's own skills folder in its config folder,
// the cross-client ~/.agents/skills, then the workspace's .agents/skills
// and .gatehouse/skills, only once the user trusted them exactly as they
// are (trust.KindSkills, hashed over every file of every skill folder).
//
// Validation is lenient, as the specification's client guide asks: a
// SKILL.md without a description, or whose front matter no repair makes
// parse, is listed with the reason and line and not offered; a name
// unlike its folder's, against the naming rule, or an unknown key is a
// warning, and the skill is offered.
//
// Disclosure is progressive: the model sees names and descriptions
// (bounded, MaxCatalogChars); activating a skill returns its instructions
// once per session; Kept puts every loaded skill's instructions after a
// checkpoint summary so compaction does not lose them. The folders of
// offered skills from outside the workspace are the session's read-only
// roots (Set.ReadOnlyRoots): the file tools read them, never write them.
//
// A session's catalog is looked at again before each model request
// (Catalog.Refresh, cheap when nothing changed): an edited workspace skill
// leaves it, a skill folder created mid-session joins it, and OnRoots
// keeps the session's read-only roots equal to the offered skills'.
package skills
