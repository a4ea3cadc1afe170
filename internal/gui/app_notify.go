package gui

// SetWindowFocused is how the page reports that the window gained or lost
// focus (it listens to the window's focus and blur events).
func (a *App) SetWindowFocused(focused bool) {
	if a.attention.blurred.Swap(!focused) != !focused {
		a.updateTitle()
	}
	if a.alerts == nil {
		return
	}
	a.alerts.SetFocused(focused)
}
