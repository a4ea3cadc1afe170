package runtime

import (
	"strings"
	"testing"
	"time"

	"gatehouse/internal/approval"
	"gatehouse/internal/llm/llmtest"
	"gatehouse/internal/protocol"
	"gatehouse/internal/tools/steer"
)

// ask_user waits for the window's answer (one of its choices) and the
// answer is the result the model reads.
func TestAskUserAnswerReachesTheModel(t *testing.T) {
	broker := steer.NewBroker()
	h := start(t, llmtest.Script{Responses: []llmtest.Response{
		call("q1", "ask_user", `{"question":"Which port?","choices":["8080","9090","7000"]}`), text("Using 9090."),
	}}, approval.Safe, nil, func(o *Options) { o.Asker = broker })
	done := make(chan protocol.StopReason, 1)
	go func() { done <- h.run("serve it") }()
	deadline := time.Now().Add(30 * time.Second)
	for len(broker.Pending()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no question waits")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if q := broker.Pending()[0]; q.CallID != "q1" || q.Question != "Which port?" || len(q.Choices) != 3 {
		t.Fatalf("question %+v", q)
	}
	if err := broker.Answer("q1", "1234"); err == nil {
		t.Error("an answer outside the choices was taken")
	}
	if err := broker.Answer("q1", "9090"); err != nil {
		t.Fatal(err)
	}
	if err := broker.Answer("q1", "8080"); err == nil {
		t.Error("a second answer was taken")
	}
	if r := <-done; r != protocol.StopCompleted {
		t.Fatalf("turn: %s", r)
	}
	body, _ := h.srv.ChatRequest(1)
	if !strings.Contains(string(body), `{\"answer\":\"9090\"}`) {
		t.Errorf("the model did not get the answer: %.600s", body)
	}
}
