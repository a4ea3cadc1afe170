package policy

import (
	_ "embed"

	"gatehouse/internal/approval"
)

// LayerBuiltin is the built-in layer: the read-only set that safe and plan
// mode run without asking (builtin.toml, shipped with the app).
const LayerBuiltin = approval.LayerBuiltin

//go:embed builtin.toml
var builtinText string

// Builtin returns the built-in layer's rules (File ""), parsed and checked
// like any file; a built-in file that does not load is a bug of the build.
func Builtin() []approval.StandingRule {
	_, rules, err := parse("builtin.toml", LayerBuiltin, builtinText)
	if err != nil {
		panic("policy: the built-in policy does not load: " + err.Error())
	}
	for i := range rules {
		rules[i].File = ""
	}
	return rules
}
