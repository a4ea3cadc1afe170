package runtime

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	_ "image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"gatehouse/internal/approval"
	"gatehouse/internal/images"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/mcp"
	"gatehouse/internal/mcp/mcptest"
	"gatehouse/internal/protocol"
)

// clickPage is the page the browser test opens: a button that, clicked,
// tells the test server and paints the whole page green.
const clickPage = `<!doctype html><html><body style="margin:0;background:#fff">
<button id="go" style="font-size:32px" onclick="fetch('/clicked');document.body.style.background='#00c000';this.textContent='done'">Press</button>
</body></html>`

// A headless turn drives a real browser through MCP (@playwright/mcp on
// Debian's Chromium): it opens a page the test serves, clicks its button,
// takes a screenshot, and the next request of a seeing model carries the
// screenshot as a picture, one that shows the page after the click.
func TestBrowserThroughMCPShowsTheModelItsScreenshot(t *testing.T) {
	js := mcptest.Browser(t)
	var clicked atomic.Int32
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/clicked" {
			clicked.Add(1)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, clickPage)
	}))
	defer page.Close()

	m := readyManager(t, "browser", mcp.ServerConfig{Command: "node", Args: mcptest.BrowserArgs(js, t.TempDir())})

	store := images.NewStore(t.TempDir())
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("b1", "mcp__browser__browser_navigate", fmt.Sprintf(`{"url":%q}`, page.URL)),
		call("b2", "mcp__browser__browser_click", `{"element":"the Press button","target":"#go"}`),
		call("b3", "mcp__browser__browser_take_screenshot", `{"type":"png","scale":"css"}`),
		text("The page turned green."),
	}}, approval.Auto, nil, func(o *Options) {
		o.Images, o.CanSee, o.Providers = store, see(true), m.Providers()
	})
	if r := h.run("open the page, press its button and show me"); r != protocol.StopCompleted {
		t.Fatalf("turn %s; results: %s | %s | %s", r, h.toolResult("b1"), h.toolResult("b2"), h.toolResult("b3"))
	}
	if clicked.Load() != 1 {
		t.Fatalf("the page saw %d clicks; the click's result: %s", clicked.Load(), h.toolResult("b2"))
	}
	for i := range 3 {
		if got := h.srv.Images(i); len(got) != 0 {
			t.Errorf("request %d carried %d pictures before the screenshot", i, len(got))
		}
	}
	got := h.srv.Images(3)
	if len(got) != 1 {
		t.Fatalf("the request after the screenshot carried %d pictures; the result: %s", len(got), h.toolResult("b3"))
	}
	im, _, err := image.Decode(bytes.NewReader(got[0].Data))
	if err != nil {
		t.Fatalf("the picture does not decode: %v", err)
	}
	b := im.Bounds()
	if c := color.RGBAModel.Convert(im.At(b.Max.X-5, b.Max.Y-5)).(color.RGBA); c.G < 150 || c.R > 60 || c.B > 60 {
		t.Errorf("the screenshot's corner is %v, not the green the click paints", c)
	}
	if res := h.toolResult("b3"); !strings.Contains(res, "the picture follows") {
		t.Errorf("the screenshot's result does not announce the picture: %s", res)
	}
}
