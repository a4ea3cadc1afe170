package main

import (
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/settings"
)

// The settings screen saves a price for the model it names; the view says
// the price in effect and where it comes from.
func TestSettingsSaveAModelsPrice(t *testing.T) {
	app, _, srv := newTestAppServer(t, llmtest.Script{})
	in := SettingsInput{BaseURL: srv.URL + "/v1", Model: "fake-model"}
	v, err := app.SaveSettings(in)
	if err != nil || v.PriceSource != settings.PriceLocal || v.Price != (settings.Price{}) {
		t.Fatalf("a local server: %+v %v", v, err)
	}
	in.Price = &settings.Price{InputPerMTok: 3, OutputPerMTok: 15}
	if v, err = app.SaveSettings(in); err != nil || v.PriceSource != settings.PriceSaved || v.Price != *in.Price {
		t.Fatalf("saved: %+v %v", v, err)
	}
	if v := app.GetSettings(); v.Price != *in.Price {
		t.Fatalf("read back: %+v", v)
	}
	in.Price = &settings.Price{InputPerMTok: -1}
	if _, err := app.SaveSettings(in); err == nil {
		t.Fatal("a negative price was saved")
	}
	in.Price, in.ClearPrice = nil, true
	if v, err = app.SaveSettings(in); err != nil || v.PriceSource != settings.PriceLocal {
		t.Fatalf("cleared: %+v %v", v, err)
	}
}
