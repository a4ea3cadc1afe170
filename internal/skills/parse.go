package skills

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"gatehouse/internal/frontmatter"
)

// Limits of the Agent Skills specification (agentskills.io).
const (
	MaxNameRunes        = 64
	MaxDescriptionRunes = 1024
)

// knownKeys are the front matter keys the specification defines.
var knownKeys = map[string]bool{"name": true, "description": true, "license": true,
	"compatibility": true, "metadata": true, "allowed-tools": true}

// Note is a problem or a warning about a SKILL.md, with the line of the
// file it is about (1-based; 0 when no line is to blame).
type Note struct {
	Line    int    `json:"line"`
	Message string `json:"message"`
}

func (n Note) String() string {
	if n.Line > 0 {
		return fmt.Sprintf("line %d: %s", n.Line, n.Message)
	}
	return n.Message
}

// parsed is what Parse read from one SKILL.md.
type parsed struct {
	Name, Description, License, Compatibility, AllowedTools string
	Body                                                    string
	// Problem, when set, keeps the skill from being offered.
	Problem  *Note
	Warnings []Note
}

// parse reads a SKILL.md whose folder is named folder, leniently as the
// specification's client guide asks: a folded description and an
// unquoted colon in a value work; no description, or front matter that no
// repair makes parse, is a problem (listed, not offered); a name unlike its
// folder, a name against the naming rule, an unknown key or a description
// past its length is a warning (offered, shown).
func parse(folder string, data []byte) parsed {
	var p parsed
	if !utf8.Valid(data) {
		p.Problem = &Note{Line: 1, Message: "SKILL.md is not UTF-8 text"}
		return p
	}
	doc, err := frontmatter.Split(data)
	switch {
	case errors.Is(err, frontmatter.ErrNone):
		p.Problem = &Note{Line: 1, Message: "no front matter: SKILL.md must start with a --- line, then name and description, then ---"}
		return p
	case err != nil:
		p.Problem = &Note{Line: 1, Message: "the front matter that starts here has no closing --- line"}
		return p
	}
	p.Body = doc.Body
	m, err := doc.Root()
	var bad *frontmatter.Error
	if errors.As(err, &bad) {
		p.Problem = &Note{Line: bad.Line, Message: "the front matter is not valid YAML: " + bad.Msg}
		return p
	}
	if m == nil || m.Kind != yaml.MappingNode {
		p.Problem = &Note{Line: 2, Message: "the front matter is not a list of keys (name: ..., description: ...)"}
		return p
	}
	var nameLine, descLine int
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		line := k.Line + 1 // the --- line comes first
		switch k.Value {
		case "name":
			p.Name, nameLine = scalar(v), line
		case "description":
			p.Description, descLine = strings.TrimSpace(scalar(v)), line
		case "license":
			p.License = scalar(v)
		case "compatibility":
			p.Compatibility = scalar(v)
		case "allowed-tools":
			p.AllowedTools = scalar(v)
			if v.Kind == yaml.SequenceNode {
				var items []string
				for _, it := range v.Content {
					items = append(items, it.Value)
				}
				p.AllowedTools = strings.Join(items, " ")
			}
		}
		if !knownKeys[k.Value] {
			p.Warnings = append(p.Warnings, Note{Line: line, Message: fmt.Sprintf("unknown key %q (the specification defines name, description, license, compatibility, metadata, allowed-tools)", k.Value)})
		}
	}
	switch {
	case p.Description == "" && descLine == 0:
		p.Problem = &Note{Line: 1, Message: "no description: the model could not know when to use the skill"}
		return p
	case p.Description == "":
		p.Problem = &Note{Line: descLine, Message: "the description is empty: the model could not know when to use the skill"}
		return p
	case utf8.RuneCountInString(p.Description) > MaxDescriptionRunes:
		p.Warnings = append(p.Warnings, Note{Line: descLine, Message: fmt.Sprintf("the description is %d characters, more than %d", utf8.RuneCountInString(p.Description), MaxDescriptionRunes)})
	}
	if p.Name == "" {
		p.Name = folder
		p.Warnings = append(p.Warnings, Note{Line: 1, Message: fmt.Sprintf("no name: the folder's, %q, is used", folder)})
		nameLine = 1
	}
	if why := nameRule(p.Name); why != "" {
		p.Warnings = append(p.Warnings, Note{Line: nameLine, Message: fmt.Sprintf("the name %q %s", p.Name, why)})
	}
	if p.Name != folder {
		p.Warnings = append(p.Warnings, Note{Line: nameLine, Message: fmt.Sprintf("the name %q differs from its folder's, %q", p.Name, folder)})
	}
	sortNotes(p.Warnings)
	return p
}

// nameRule says how name breaks the specification's naming rule, or "":
// lowercase letters and digits (Unicode ones too) and hyphens, at most 64,
// no hyphen first, last or twice in a row.
func nameRule(name string) string {
	switch {
	case utf8.RuneCountInString(name) > MaxNameRunes:
		return fmt.Sprintf("is longer than %d characters", MaxNameRunes)
	case strings.HasPrefix(name, "-") || strings.HasSuffix(name, "-"):
		return "starts or ends with a hyphen"
	case strings.Contains(name, "--"):
		return "holds two hyphens in a row"
	}
	for _, r := range name {
		if r == '-' || unicode.IsDigit(r) || unicode.IsLetter(r) && !unicode.IsUpper(r) && !unicode.IsTitle(r) {
			continue
		}
		return fmt.Sprintf("holds %q: only lowercase letters, digits and hyphens are allowed", r)
	}
	return ""
}

func scalar(v *yaml.Node) string {
	if v.Kind == yaml.ScalarNode {
		return v.Value
	}
	return ""
}

func sortNotes(n []Note) {
	for i := 1; i < len(n); i++ {
		for j := i; j > 0 && n[j].Line < n[j-1].Line; j-- {
			n[j], n[j-1] = n[j-1], n[j]
		}
	}
}
