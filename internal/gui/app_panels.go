package gui

import (
	"fmt"

	"gatehouse/internal/settings"
)

// SetPanelWidth keeps the width a side panel was dragged to, so the window
// opens with it after a restart (State().PanelWidths). The page calls it
// when a drag ends, not on every move.
func (a *App) SetPanelWidth(panel string, width int) error {
	var bad error
	err := a.store.Update(func(s *settings.Settings) { bad = s.SetPanelWidth(panel, width) })
	if bad != nil {
		return bad
	}
	if err != nil {
		return fmt.Errorf("could not save the panel's width: %w", err)
	}
	return nil
}
