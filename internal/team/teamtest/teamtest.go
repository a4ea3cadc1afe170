// Package teamtest holds a scripted team for the hosts' tests: one fake
// model server for the lead and its teammate, every answer after the
// lead's first a rule matched on the request's last message (the two
// sessions' requests interleave in no fixed order).
package teamtest

import "gatehouse/internal/llm/llmtest"

// ScoutReports is a lead that spawns teammate "scout" (the explore agent)
// under call s1 and answers "scout started"; scout tells the lead "found
// a.txt" (call m1) and answers "told the lead"; the lead, told, answers
// "scout found a.txt".
func ScoutReports() llmtest.Script {
	call := func(id, name, args string) llmtest.Response {
		return llmtest.Response{ToolCalls: []llmtest.ToolCall{{ID: id, Name: name, Arguments: llmtest.Text(args)}}}
	}
	text := func(s string) llmtest.Response { return llmtest.Response{Text: llmtest.Text(s)} }
	return llmtest.Script{Responses: []llmtest.Response{
		call("s1", "team_spawn", `{"name":"scout","agent":"explore","task":"look around"}`),
	}, When: []llmtest.Rule{
		{LastContains: "You are scout", Response: call("m1", "team_message", `{"to":"lead","text":"found a.txt"}`)},
		{LastContains: `status\":\"sent`, Response: text("told the lead")},
		{LastContains: "[team message from scout to lead]", Response: text("scout found a.txt")},
		{LastContains: `name\":\"scout`, Response: text("scout started")},
	}}
}
