package gui

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/supervisor/suptest"
)

// liveCall is a scripted tool call with its arguments as JSON.
func liveCall(id, name string, args map[string]string) llmtest.ToolCall {
	b, _ := json.Marshal(args)
	return llmtest.ToolCall{ID: id, Name: name, Arguments: llmtest.Text(string(b))}
}

// writeLiveSkill writes a skill folder dir named after it, with a Python
// script and a reference.
func writeLiveSkill(t *testing.T, dir string) {
	t.Helper()
	name := filepath.Base(dir)
	for _, d := range []string{"scripts", "references"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(filepath.Join(dir, "SKILL.md"), []byte("---\nname: "+name+"\ndescription: "+name+" things\n---\nRun scripts/run.py.\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "scripts", "run.py"), []byte("print('ran "+name+"')\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "references", "guide.md"), []byte("# guide of "+name+"\n"), 0o644)
}

// A user skill folder created after the session started (in Gatehouse's
// skills folder, which did not exist yet, and in ~/.agents/skills) is
// offered from the next model request, and is a read-only root of the
// same session: read_file reaches its reference, write_file is refused
// there in auto, a confined command runs its script and cannot write
// beside it.
func TestUserSkillCreatedMidSessionIsAReadOnlyRootAtOnce(t *testing.T) {
	suptest.Confining(t)
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("no python3")
	}
	home, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// Commands get a private /tmp when TMPDIR is /tmp: the test's home
	// lies there, so it names a temp folder of its own.
	os.MkdirAll(filepath.Join(home, "tmp"), 0o755)
	t.Setenv("TMPDIR", filepath.Join(home, "tmp"))
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
	config := filepath.Join(home, ".config", "gatehouse")
	mine := filepath.Join(config, "skills", "mine")
	shared := filepath.Join(home, ".agents", "skills", "shared")
	srv := llmtest.Start(t, llmtest.Script{Responses: []llmtest.Response{
		{Text: llmtest.Text("ready")},
		{ToolCalls: []llmtest.ToolCall{
			liveCall("read", "read_file", map[string]string{"path": filepath.Join(shared, "references", "guide.md")}),
			liveCall("readmine", "read_file", map[string]string{"path": filepath.Join(mine, "references", "guide.md")}),
			liveCall("write", "write_file", map[string]string{"path": filepath.Join(mine, "scripts", "run.py"), "content": "evil"}),
			liveCall("run", "bash", map[string]string{"action": "exec", "command": "python3 " + filepath.Join(mine, "scripts", "run.py")}),
			liveCall("plant", "bash", map[string]string{"action": "exec", "command": "touch " + filepath.Join(mine, "planted.py")}),
		}},
		{Text: llmtest.Text("done")},
	}})
	app, _ := newAppIn(t, srv, config, filepath.Join(home, ".local", "share", "gatehouse"))

	if _, err := app.Submit(protocol.Submission{Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	if _, err := os.Stat(filepath.Join(config, "skills")); err == nil {
		t.Fatal("the skills folder exists before the test makes it")
	}
	writeLiveSkill(t, mine)
	writeLiveSkill(t, shared)

	if _, err := app.Submit(protocol.Submission{Text: "use them"}); err != nil {
		t.Fatal(err)
	}
	waitIdle(t, app)
	reqs := srv.ModelRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests", len(reqs))
	}
	if first := string(reqs[0].Body); strings.Contains(first, `"name":"skill"`) {
		t.Errorf("the first request offers skills that did not exist yet: %.2000s", first)
	}
	if second := string(reqs[1].Body); !strings.Contains(second, `"enum":["mine","shared"]`) {
		t.Errorf("the request after the folders were made does not offer them: %.3000s", second)
	}
	results := map[string]string{}
	for _, it := range app.Snapshot().Transcript {
		if it.Kind == protocol.ItemTool {
			results[it.ID] = string(it.Result)
		}
	}
	for _, id := range []string{"read", "readmine"} {
		if !strings.Contains(results[id], "# guide of") {
			t.Errorf("read_file of a new skill's reference (%s): %s", id, results[id])
		}
	}
	if r := results["write"]; !strings.Contains(r, "read_only_root") && !strings.Contains(r, "protected") {
		t.Errorf("write_file into the new skill in auto: %s", r)
	}
	if r := results["run"]; !strings.Contains(r, "ran mine") {
		t.Errorf("the confined command did not run the new skill's script: %s", r)
	}
	if b, _ := os.ReadFile(filepath.Join(mine, "scripts", "run.py")); string(b) != "print('ran mine')\n" {
		t.Errorf("the skill's script changed: %q", b)
	}
	if _, err := os.Stat(filepath.Join(mine, "planted.py")); err == nil {
		t.Errorf("a confined command wrote beside the new skill: %s", results["plant"])
	}
}
