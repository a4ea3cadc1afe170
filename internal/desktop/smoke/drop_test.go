//go:build desktop

package smoke

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gatehouse/internal/llm/llmtest"
)

// TestDesktopDropImage drags a PNG file from another application (a GTK 3
// drag source offering its URI, as a file manager does) onto the real
// window's chat with the X pointer (xdotool): a real XDND exchange with
// WebKitGTK, whose drop event must carry the file to the page, which
// attaches it (the image store holds it) and shows its thumbnail.
func TestDesktopDropImage(t *testing.T) {
	srv := llmtest.StartUnchecked(llmtest.Script{Models: []string{"gpt-4o"}})
	t.Cleanup(srv.Close)
	w := openWindow(t, "drops", srv.URL, "gpt-4o")
	pic := writePNG(t, filepath.Join(w.Home, "dropped.png"), 240, 160)

	// The drag source, on top of the window in the screen's lower right.
	src := exec.Command("/usr/bin/python3", filepath.Join("testdata", "dragsource.py"), pic, "1200", "700")
	src.Env = append(os.Environ(), "DISPLAY="+w.Display)
	src.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out, err := src.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	src.Stderr = os.Stderr
	if err := src.Start(); err != nil {
		t.Fatalf("the drag source (python3-gi, gir1.2-gtk-3.0): %v", err)
	}
	t.Cleanup(func() { stopGroup(src) })
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	select {
	case l := <-lines:
		if l != "ready" {
			t.Fatalf("the drag source said %q", l)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the drag source never showed")
	}
	if err := waitWindow(w.Ctx, w.Display, "gatehouse drag source"); err != nil {
		t.Fatal(err)
	}
	sx, sy, sw, sh := w.geometry(t, "gatehouse drag source")
	ax, ay, aw, ah := w.geometry(t, w.Title)
	// The middle of the chat: the window's middle, left of the drag source.
	tx, ty := ax+aw/2, ay+ah/2
	if tx >= sx && tx < sx+sw && ty >= sy && ty < sy+sh {
		t.Fatalf("the drag source (%d,%d %dx%d) covers the drop point (%d,%d)", sx, sy, sw, sh, tx, ty)
	}

	drag := func() {
		x, y := sx+sw/2, sy+sh/2
		w.xdo(t, "mousemove", "--sync", strconv.Itoa(x), strconv.Itoa(y))
		w.xdo(t, "mousedown", "1")
		// Past GTK's drag threshold, then across to the chat in steps, as a hand moves.
		for i := 1; i <= 20; i++ {
			px, py := x+(tx-x)*i/20, y+(ty-y)*i/20
			w.xdo(t, "mousemove", strconv.Itoa(px), strconv.Itoa(py))
			time.Sleep(50 * time.Millisecond)
		}
		w.xdo(t, "mousemove", strconv.Itoa(tx+3), strconv.Itoa(ty+3))
		time.Sleep(300 * time.Millisecond)
		w.xdo(t, "mouseup", "1")
		select {
		case <-lines:
		case <-time.After(5 * time.Second):
		}
	}
	before := w.redPixels(t, ax, ay, aw, ah)
	stored := w.waitStored(t, "drop", drag)
	checkSize(t, stored, 240, 160)
	// The thumbnail shows in the composer: the picture's red line appears
	// in the window, where there was none.
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		if n := w.redPixels(t, ax, ay, aw, ah); n > before+10 {
			break
		}
		if time.Now().After(deadline) {
			shot := filepath.Join(os.TempDir(), "gatehouse-drop-thumbnail.png")
			w.screenshot(shot)
			t.Fatalf("the image was stored but no thumbnail showed (%d red pixels before; screenshot %s)", before, shot)
		}
	}
}

// redPixels counts the red pixels (the test pictures' line, maybe blended
// into grey where the picture is scaled down) in the
// screen's rectangle x, y, width, height.
func (w *window) redPixels(t *testing.T, x, y, width, height int) int {
	t.Helper()
	shot := filepath.Join(t.TempDir(), "screen.png")
	if err := w.screenshot(shot); err != nil {
		t.Fatal(err)
	}
	img := decode(t, shot)
	n := 0
	for py := y; py < y+height; py++ {
		for px := x; px < x+width; px++ {
			// Red, or red blended into the thumbnail's grey as the
			// picture is scaled down (the line is thinner than a pixel).
			r, g, b, _ := img.At(px, py).RGBA()
			if r, g, b := int(r>>8), int(g>>8), int(b>>8); r > 150 && r-g > 40 && r-b > 40 {
				n++
			}
		}
	}
	return n
}

// geometry is the position and size of the visible window named title.
func (w *window) geometry(t *testing.T, title string) (x, y, width, height int) {
	t.Helper()
	out := w.xdo(t, "search", "--onlyvisible", "--name", title, "getwindowgeometry", "--shell")
	v := map[string]int{}
	for _, l := range strings.Split(out, "\n") {
		if k, val, ok := strings.Cut(l, "="); ok {
			n, _ := strconv.Atoi(val)
			v[k] = n
		}
	}
	if v["WIDTH"] == 0 {
		t.Fatal(fmt.Sprintf("no geometry for %q: %s", title, out))
	}
	return v["X"], v["Y"], v["WIDTH"], v["HEIGHT"]
}
