// Command longlog writes a long saved session, as the app's own session log
// writes it, for the window's scale bench and end-to-end tests: a number of
// tool calls in turns of a prompt, a read_file, a grep, an apply_patch with
// its diff and a bash run with its output, then a reply and the turn's stop.
//
//	longlog -data DIR -workspace WS -id ID -calls 1000 [-needle WORD]
//
// -needle puts WORD into the output of the session's first bash call only
// (folded in its card), for a find test to look for. It prints the log's path.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"gatehouse/internal/protocol"
	"gatehouse/internal/session"
)

func main() {
	data := flag.String("data", "", "the app's data folder (…/gatehouse)")
	workspace := flag.String("workspace", "", "the workspace the session belongs to")
	id := flag.String("id", "long-1", "the session's id")
	calls := flag.Int("calls", 1000, "tool calls in the session (4 a turn)")
	needle := flag.String("needle", "", "a word only the first bash call's output holds")
	flag.Parse()
	if *data == "" || *workspace == "" || *calls < 1 {
		fmt.Fprintln(os.Stderr, "usage: longlog -data DIR -workspace WS [-id ID] [-calls N] [-needle WORD]")
		os.Exit(2)
	}
	path, err := write(session.NewStore(*data), *workspace, *id, *calls, *needle)
	if err != nil {
		fmt.Fprintln(os.Stderr, "longlog:", err)
		os.Exit(1)
	}
	fmt.Println(path)
}

// write writes the session's log and returns its path.
func write(store *session.Store, workspace, id string, calls int, needle string) (string, error) {
	log, err := store.Create(workspace, id)
	if err != nil {
		return "", err
	}
	for _, it := range Items(calls, needle) {
		if err := log.AppendItem(it); err != nil {
			log.Close()
			return "", err
		}
	}
	return log.Path(), log.Close()
}

// Items is the session's transcript: calls tool calls, four a turn.
func Items(calls int, needle string) []protocol.TranscriptItem {
	var out []protocol.TranscriptItem
	for turn := 0; turn*4 < calls; turn++ {
		t := fmt.Sprintf("t%d", turn)
		file := fmt.Sprintf("internal/handler/route%03d.go", turn)
		out = append(out, protocol.TranscriptItem{Kind: protocol.ItemUser, TurnID: t,
			Text: fmt.Sprintf("Step %d: make route %d validate its input and add a test", turn+1, turn)})
		tools := []protocol.TranscriptItem{
			call(t, "read", "read_file", map[string]any{"path": file}, readResult(file, turn)),
			call(t, "grep", "grep", map[string]any{"pattern": "func Route", "path": "internal/handler"}, grepResult(turn)),
			call(t, "patch", "apply_patch", map[string]any{"patch": patchText(file, turn)}, patchResult(file, turn)),
			call(t, "bash", "bash", map[string]any{"action": "exec", "command": "go test ./internal/handler/..."}, bashResult(turn, needle)),
		}
		for i := 0; i < len(tools) && turn*4+i < calls; i++ {
			out = append(out, tools[i])
		}
		out = append(out,
			protocol.TranscriptItem{Kind: protocol.ItemAssistant, TurnID: t, ID: "m_" + t, Text: fmt.Sprintf(
				"Route %d now refuses an empty `name` with **400**:\n\n```go\nif req.Name == \"\" {\n\treturn badRequest(\"name is required\")\n}\n```\n\nThe tests pass (%d in the package).", turn, 12+turn%7)},
			protocol.TranscriptItem{Kind: protocol.ItemStop, TurnID: t, Reason: protocol.StopCompleted,
				Usage: &protocol.Usage{PromptTokens: int64(20_000 + 300*turn), CompletionTokens: 420, TotalTokens: int64(20_420 + 300*turn)}})
	}
	return out
}

func call(turn, kind, tool string, args, result any) protocol.TranscriptItem {
	a, _ := json.Marshal(args)
	r, _ := json.Marshal(result)
	return protocol.TranscriptItem{Kind: protocol.ItemTool, TurnID: turn, ID: "call_" + kind + "_" + turn, Tool: tool,
		Args: a, Result: r, DurationMs: 40}
}

// body is the route's source, lines lines long.
func body(turn, lines int) []string {
	out := []string{"package handler", "", fmt.Sprintf("// Route%d answers /v1/items/%d.", turn, turn),
		fmt.Sprintf("func Route%d(w http.ResponseWriter, r *http.Request) {", turn)}
	for i := len(out); i < lines-1; i++ {
		out = append(out, fmt.Sprintf("\tfield%d := r.URL.Query().Get(%q) // line %d", i, fmt.Sprintf("f%d", i), i))
	}
	return append(out, "}")
}

func readResult(file string, turn int) map[string]any {
	var b strings.Builder
	for i, l := range body(turn, 40) {
		fmt.Fprintf(&b, "%6d\t%s\n", i+1, l)
	}
	return map[string]any{"path": file, "content": b.String(), "totalLines": 40}
}

func grepResult(turn int) map[string]any {
	var m []map[string]any
	for i := 0; i < 12; i++ {
		m = append(m, map[string]any{"path": fmt.Sprintf("internal/handler/route%03d.go", (turn+i)%250), "line": 4,
			"text": fmt.Sprintf("func Route%d(w http.ResponseWriter, r *http.Request) {", (turn+i)%250)})
	}
	return map[string]any{"pattern": "func Route", "matches": m, "filesSearched": 250, "truncated": false}
}

func patchText(file string, turn int) string {
	return fmt.Sprintf("*** Begin Patch\n*** Update File: %s\n@@ func Route%d(w http.ResponseWriter, r *http.Request) {\n+\tif r.URL.Query().Get(\"name\") == \"\" {\n+\t\tbadRequest(w, \"name is required\")\n+\t\treturn\n+\t}\n*** End Patch", file, turn)
}

func patchResult(file string, turn int) map[string]any {
	src := body(turn, 40)
	var d strings.Builder
	fmt.Fprintf(&d, "@@ -1,12 +1,16 @@\n")
	for i, l := range src[:12] {
		d.WriteString(" " + l + "\n")
		if i == 3 {
			d.WriteString("+\tif r.URL.Query().Get(\"name\") == \"\" {\n+\t\tbadRequest(w, \"name is required\")\n+\t\treturn\n+\t}\n")
		}
	}
	return map[string]any{"filesChanged": 1, "operationsApplied": 1, "fileChanges": []map[string]any{
		{"path": file, "operation": "update", "linesAdded": 4, "linesRemoved": 0, "diff": d.String()}}}
}

func bashResult(turn int, needle string) map[string]any {
	var out strings.Builder
	for i := 0; i < 30; i++ {
		fmt.Fprintf(&out, "=== RUN   TestRoute%d/case_%02d\n", turn, i)
	}
	if turn == 0 && needle != "" {
		fmt.Fprintf(&out, "--- note: %s\n", needle)
	}
	fmt.Fprintf(&out, "PASS\nok  \texample.com/app/internal/handler\t0.%03ds\n", 100+turn%900)
	return map[string]any{"command": "go test ./internal/handler/...", "cwd": ".", "exitCode": 0,
		"stdout": out.String(), "stderr": "", "timedOut": false, "durationMs": 900, "truncated": false}
}
