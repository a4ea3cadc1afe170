package gui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"gatehouse/internal/agent"
	"gatehouse/internal/images"
	"gatehouse/internal/mention"
	"gatehouse/internal/protocol"
)

// SubmitResult tells the page whether its message started a turn or waits.
type SubmitResult struct {
	Queued bool `json:"queued"`
}

// Submit is the window's one way to send a message: it starts a turn, or
// queues it while one runs. The message is m's text, or, when m names a
// "/" entry, that entry's expansion of its arguments (the registry's
// winner for the name); then the @-mentioned files, ranges, folders,
// earlier sessions and MCP resources attached after it; and the pictures
// (a mentioned picture resource's too). A mention the
// workspace boundary refuses or over the size cap, a picture the model
// cannot see, an unknown or built-in "/" entry fail the send and say
// which: nothing is sent then.
func (a *App) Submit(m protocol.Submission) (SubmitResult, error) {
	if a.State().NeedsSetup {
		return SubmitResult{}, errors.New("set up a model first (Settings)")
	}
	text := m.Text
	if c := m.Command; c != nil {
		msg, err := a.slash.Message(c.Name, c.Args)
		if err != nil {
			if _, ok := a.slash.Resolve(c.Name); !ok {
				return SubmitResult{}, fmt.Errorf("no command /%s (add %s)", c.Name, filepath.Join(a.commandsDir(), c.Name+".md"))
			}
			return SubmitResult{}, err
		}
		text = msg
	}
	var pics []images.Image // mentioned resources' pictures
	if len(m.Mentions) > 0 {
		a.mu.Lock()
		ws := a.ws
		a.mu.Unlock()
		if ws == nil {
			return SubmitResult{}, errNoSession
		}
		extra, err := mention.AttachFrom(context.Background(), ws, m.Mentions,
			mention.Sources{Sessions: a.sessionDigest, Resources: a.mentionedResource(&pics)})
		if err != nil {
			return SubmitResult{}, err
		}
		text += extra
	}
	p := agent.Prompt{Text: text}
	if len(m.Images) > 0 {
		ims, err := a.attacher().Prompt(context.Background(), m.Images)
		if err != nil {
			return SubmitResult{}, err
		}
		p.Images = ims
	}
	p.Images = append(p.Images, pics...)
	return a.submitPrompt(p)
}

// submitText sends text the window itself wrote (an approved plan, a
// revision note) as Submit does.
func (a *App) submitText(text string) (SubmitResult, error) {
	return a.Submit(protocol.Submission{Text: text})
}

func (a *App) submitPrompt(p agent.Prompt) (SubmitResult, error) {
	s, err := a.session()
	if err != nil {
		return SubmitResult{}, err
	}
	queued, err := s.SubmitPrompt(p)
	return SubmitResult{Queued: queued}, err
}
