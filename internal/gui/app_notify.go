package gui

// SetWindowFocused is how the page reports that the window gained or lost
// focus (it listens to the window's focus and blur events): a process that
// fails, or an approval or question that waits, while the user is away
// notifies.
func (a *App) SetWindowFocused(focused bool) {
	if a.alerts != nil {
		a.alerts.SetFocused(focused)
	}
	if a.attention.setFocused(focused) {
		a.attend()
	}
}
