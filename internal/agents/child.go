package agents

import (
	"context"
	"strings"
	"sync"

	"gatehouse/internal/agent"
	"gatehouse/internal/protocol"
	"gatehouse/internal/runtime"
)

// Child is one child session's run, as its parent sees it.
type Child struct {
	ID           string
	Agent        string
	Task         string
	ParentCallID string
	Background   bool

	sess   *runtime.Session
	ctx    context.Context // a background child's own
	cancel context.CancelFunc
	done   chan struct{}

	mu        sync.Mutex
	answer    string
	toolCalls int
	out       agent.Outcome
	ended     bool
	delivered bool
	items     []protocol.TranscriptItem // the child's transcript once ended
}

// ChildInfo is what the UI and the tools report of a child.
type ChildInfo struct {
	ID           string                    `json:"id"`
	Agent        string                    `json:"agent"`
	Task         string                    `json:"task"`
	ParentCallID string                    `json:"parentCallId"`
	Background   bool                      `json:"background,omitempty"`
	Status       string                    `json:"status"` // running, or the stop reason
	Answer       string                    `json:"answer,omitempty"`
	Error        string                    `json:"error,omitempty"`
	Blocked      *protocol.Blocked         `json:"blocked,omitempty"`
	ToolCalls    int                       `json:"toolCalls"`
	Usage        protocol.Usage            `json:"usage"`
	Items        []protocol.TranscriptItem `json:"items,omitempty"`
}

// Info reports the child now.
func (c *Child) Info() ChildInfo {
	c.mu.Lock()
	defer c.mu.Unlock()
	ci := ChildInfo{ID: c.ID, Agent: c.Agent, Task: c.Task, ParentCallID: c.ParentCallID, Background: c.Background,
		Status: "running", Answer: c.answer, ToolCalls: c.toolCalls, Usage: c.out.Usage, Blocked: c.out.Blocked}
	if c.ended {
		ci.Items = c.items
		ci.Status = string(c.out.Reason)
		if c.out.Err != nil {
			ci.Error = c.out.Err.Error()
		}
	}
	return ci
}

// observe keeps the child's last answer and counts its tool calls.
func (c *Child) observe(e protocol.Event) {
	if e.ParentCallID != "" {
		return // a grandchild's
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	switch p := e.Payload.(type) {
	case protocol.MessageDonePayload:
		if strings.TrimSpace(p.Text) != "" {
			c.answer = p.Text
		}
	case protocol.ToolFinishedPayload:
		c.toolCalls++
	}
}
