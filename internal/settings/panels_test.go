package settings

import (
	"os"
	"path/filepath"
	"testing"
)

// A dragged width is saved through Update (which must see the map change),
// survives a reload, and nonsense is refused or, on disk, dropped.
func TestPanelWidthsSurviveAReloadAndNonsenseIsKeptOut(t *testing.T) {
	dir := t.TempDir()
	st := NewStore(dir)
	if err := st.Update(func(s *Settings) { _ = s.SetPanelWidth("servers", 420) }); err != nil {
		t.Fatal(err)
	}
	if err := st.Update(func(s *Settings) { _ = s.SetPanelWidth("servers", 480) }); err != nil {
		t.Fatal(err)
	}
	got, err := st.Load()
	if err != nil || got.PanelWidths["servers"] != 480 || len(got.PanelWidths) != 1 {
		t.Fatalf("after two drags: %v, %v", got.PanelWidths, err)
	}

	var s Settings
	for _, bad := range []struct {
		panel string
		w     int
	}{{"", 300}, {"files", 10}, {"files", 1 << 20}, {"a-name-far-too-long-for-any-panel-of-ours", 300}} {
		if err := s.SetPanelWidth(bad.panel, bad.w); err == nil {
			t.Errorf("SetPanelWidth(%q, %d) accepted", bad.panel, bad.w)
		}
	}
	if s.PanelWidths != nil {
		t.Fatalf("a refused width changed the map: %v", s.PanelWidths)
	}
	if err := st.Save(Settings{ApprovalMode: ApprovalSafe, Theme: ThemeSystem, PanelWidths: map[string]int{"files": 5}}); err == nil {
		t.Fatal("Save accepted a 5 px panel")
	}

	os.WriteFile(filepath.Join(dir, SettingsFile), []byte(`{"panelWidths":{"files":300,"processes":-4}}`), 0o644)
	got, err = st.Load()
	if err != nil || got.PanelWidths["files"] != 300 || len(got.PanelWidths) != 1 {
		t.Fatalf("a bad width on disk: %v, %v", got.PanelWidths, err)
	}
}
