//go:build !(linux && cgo)

package fontstack

import "errors"

// Without fontconfig the page keeps its stacks as they are.
func loadDefault() (config, error) { return nil, errors.New("fontconfig: not in this build") }
