package gui

// FontFamilies returns, for each of the page's font stacks, the family of it
// the window draws with ("" when none, or when that is not known). The page
// names that family first, so WebKit finds its first frame's fonts at the
// first lookup instead of trying the stack's other names for every size and
// weight (internal/desktop/fontstack).
func (a *App) FontFamilies(stacks [][]string) []string {
	out := make([]string, len(stacks))
	for i, s := range stacks {
		out[i] = a.fonts.Resolve(s)
	}
	return out
}
