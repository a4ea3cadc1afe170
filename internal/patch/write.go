package patch

// Modes of PlanWrite.
const (
	WriteCreate    = "create"
	WriteOverwrite = "overwrite"
	WriteAppend    = "append"
)

// PlanWrite plans writing content to the file at path: create refuses an
// existing file, overwrite replaces it (or creates it), append adds content
// at its end (or creates it). The plan applies like a patch's.
func PlanWrite(r Resolver, path, content, mode string) (*Plan, error) {
	pl := newPlanner(r)
	f, err := pl.load(path)
	if err != nil {
		return nil, err
	}
	old := ""
	if f.exists {
		old = f.content
	}
	next := content
	switch mode {
	case WriteCreate:
		if f.exists {
			return nil, errf(CodeAlreadyExists, path, "cannot create: the file already exists (use mode overwrite or append)")
		}
	case WriteOverwrite:
	case WriteAppend:
		next = old + content
	default:
		return nil, errf(CodeInvalid, path, "unknown mode %q: use create, overwrite or append", mode)
	}
	operation := "update"
	if !f.exists {
		operation = "add"
	}
	replaces := f.exists && mode == WriteOverwrite
	f.exists, f.content = true, next
	pl.record(path, operation, "", old, next, nil, nil, replaces)
	return pl.plan, nil
}

// Created reports whether applying the plan creates the file at resolved
// path abs.
func (p *Plan) Created(abs string) bool {
	for _, f := range p.files {
		if f.abs == abs {
			return !f.origExists && f.exists
		}
	}
	return false
}
