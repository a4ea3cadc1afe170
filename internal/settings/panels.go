package settings

import "fmt"

// Panel widths are the window's own state, not a preference the user sets
// in a form: the width each side panel ("files", "servers", "processes")
// was dragged to, in CSS pixels, kept with the settings so it survives a
// restart (the webview's own storage may not). The window decides how much
// of a saved width fits; these bounds only keep nonsense out of the file.
const (
	MinPanelWidth = 160
	MaxPanelWidth = 4000
	maxPanels     = 16 // a few panels, never a map that grows without bound
	maxPanelName  = 32
)

func checkPanelWidth(panel string, w int) error {
	if panel == "" || len(panel) > maxPanelName {
		return fmt.Errorf("panel name %q is empty or longer than %d bytes", panel, maxPanelName)
	}
	if w < MinPanelWidth || w > MaxPanelWidth {
		return fmt.Errorf("width %d of panel %q is not between %d and %d", w, panel, MinPanelWidth, MaxPanelWidth)
	}
	return nil
}

// SetPanelWidth records panel's width; a bad name or width is refused and
// changes nothing.
func (s *Settings) SetPanelWidth(panel string, w int) error {
	if err := checkPanelWidth(panel, w); err != nil {
		return err
	}
	if _, known := s.PanelWidths[panel]; !known && len(s.PanelWidths) >= maxPanels {
		return fmt.Errorf("too many panels already have a width (%d)", maxPanels)
	}
	if s.PanelWidths == nil {
		s.PanelWidths = map[string]int{}
	}
	s.PanelWidths[panel] = w
	return nil
}
