package llm

import (
	"context"
	"time"
)

// ConnectionStatus is the one-word answer of TestConnection.
type ConnectionStatus string

const (
	Reachable    ConnectionStatus = "reachable"
	KeyRejected  ConnectionStatus = "key_rejected"
	ModelUnknown ConnectionStatus = "model_unknown"
	Unreachable  ConnectionStatus = "unreachable"
)

// ConnectionResult is what the settings screen shows.
type ConnectionResult struct {
	Status ConnectionStatus `json:"status"`
	// Message is a sentence for the user.
	Message string `json:"message"`
	// Kind is the error kind behind a failure ("" when reachable).
	Kind ErrorKind `json:"kind,omitempty"`
}

// TestConnection checks that baseURL answers, accepts apiKey and knows
// model. It lists the models; when the model is not listed (or listing is
// not supported) it asks for a one-token completion, so servers that list
// only some of their models still pass. With APIResponses it always asks
// for a completion (of the API's minimum length), since a server that lists
// the model may still lack /responses. It makes no retries and gives up
// after 15 seconds unless ctx ends sooner.
func TestConnection(ctx context.Context, api API, baseURL, apiKey, model string) ConnectionResult {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	c, err := New(Config{API: api, BaseURL: baseURL, APIKey: apiKey, Model: model})
	if err != nil {
		return failed(err)
	}
	if model == "" {
		return ConnectionResult{Status: ModelUnknown, Kind: KindBadConfig, Message: "No model is named."}
	}
	listed, err := c.hasModel(ctx, model)
	if err != nil {
		if k := KindOf(err); k == KindKeyRejected || k == KindUnreachable || k == KindCancelled {
			return failed(err)
		}
		// No usable /models: fall through to a completion.
	}
	if listed && c.api == APIChat {
		return ConnectionResult{Status: Reachable, Message: "Connected: the server accepted the key and knows " + model + "."}
	}
	_, err = c.Stream(ctx, Request{Messages: []Message{User("ping")}, MaxTokens: 1}, nil)
	if err != nil {
		return failed(err)
	}
	return ConnectionResult{Status: Reachable, Message: "Connected: " + model + " answered."}
}

func (c *Client) hasModel(ctx context.Context, model string) (bool, error) {
	page, err := c.oa.Models.List(ctx)
	if err != nil {
		return false, classify(ctx, err)
	}
	for _, m := range page.Data {
		if m.ID == model {
			return true, nil
		}
	}
	return false, nil
}

func failed(err error) ConnectionResult {
	e := classify(context.Background(), err)
	r := ConnectionResult{Kind: e.Kind, Message: e.Message}
	switch e.Kind {
	case KindKeyRejected:
		r.Status = KeyRejected
	case KindModelUnknown:
		r.Status = ModelUnknown
	default:
		// Reached something, but not a working model API: for the user this
		// is "unreachable", with the message saying why.
		r.Status = Unreachable
	}
	return r
}

// WithoutKey is the result r of a test made without the key in effect,
// because the key is kept for another server (withheld says so): a server
// that wants a key gets the reason in the message, and a success says the
// saved key was not sent.
func (r ConnectionResult) WithoutKey(withheld error) ConnectionResult {
	if withheld == nil {
		return r
	}
	switch r.Status {
	case KeyRejected:
		r.Message = "The server wants a key, and none was sent: " + withheld.Error() + "."
	case Reachable:
		r.Message += " No key was sent: " + withheld.Error() + " if this server needs one."
	}
	return r
}
