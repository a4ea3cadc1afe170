package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/png"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
)

func tinyPNG(t *testing.T) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// A user message's image and a tool result's image reach the server in the
// shapes each API takes, through the real openai-go client: on Chat
// Completions an image_url part with a data URL and detail "auto" in the
// user message, and the tool's image in a user message after the tool
// message; on Responses input_image in the message and inside the
// function_call_output.
func TestImagesSentInBothAPIShapes(t *testing.T) {
	pic := tinyPNG(t)
	im := llm.Image{ID: "x", MIME: "image/png", Data: pic, Width: 3, Height: 2}
	msgs := []llm.Message{
		{Role: llm.RoleUser, Text: "what is this?", Images: []llm.Image{im}},
		llm.Assistant("", llm.ToolCall{ID: "call_1", Name: "view_image", Arguments: `{"path":"a.png"}`}),
		{Role: llm.RoleTool, ToolCallID: "call_1", Text: "a.png: 3×2 PNG", Images: []llm.Image{im}},
	}
	for _, api := range []llm.API{llm.APIChat, llm.APIResponses} {
		t.Run(string(api), func(t *testing.T) {
			srv := llmtest.Start(t, script(t, `{"responses": [{"text": "a grey square"}]}`))
			c, err := llm.New(llm.Config{API: api, BaseURL: srv.URL, Model: "fake"})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Stream(context.Background(), llm.Request{Messages: msgs}, nil); err != nil {
				t.Fatal(err)
			}
			got := srv.Images(0)
			if len(got) != 2 {
				t.Fatalf("server saw %d images, want 2: %+v", len(got), got)
			}
			for _, g := range got {
				if g.MIME != "image/png" || g.Detail != "auto" || !bytes.Equal(g.Data, pic) {
					t.Errorf("image %+v", g)
				}
			}
			body := srv.ModelRequests()[0].Body
			if api == llm.APIChat {
				var req struct {
					Messages []struct {
						Role    string          `json:"role"`
						Content json.RawMessage `json:"content"`
					} `json:"messages"`
				}
				json.Unmarshal(body, &req)
				roles := []string{}
				for _, m := range req.Messages {
					roles = append(roles, m.Role)
				}
				if len(roles) != 4 || roles[2] != "tool" || roles[3] != "user" || got[1].Message != 3 {
					t.Fatalf("roles %v, tool image in message %d", roles, got[1].Message)
				}
				var tool string
				if json.Unmarshal(req.Messages[2].Content, &tool) != nil || tool != "a.png: 3×2 PNG" {
					t.Fatalf("tool message content %s", req.Messages[2].Content)
				}
			} else if got[0].Role != "user" || got[1].Role != "function_call_output" {
				t.Fatalf("roles %s, %s", got[0].Role, got[1].Role)
			}
		})
	}
}

func TestVisionFromServerTableAndSetting(t *testing.T) {
	srv := llmtest.Start(t, script(t, `{"models": ["seer", "blind", "plain"], "responses": [],
		"modelMeta": {"seer": {"architecture": {"input_modalities": ["text", "image"]}},
		"blind": {"input_modalities": ["text"]}}}`))
	ask := func(model string) llm.Vision {
		c, err := llm.New(llm.Config{BaseURL: srv.URL, Model: model})
		if err != nil {
			t.Fatal(err)
		}
		return c.ServerVision(context.Background())
	}
	if v := ask("seer"); !v.CanSee || v.Source != llm.VisionServer {
		t.Errorf("seer: %+v", v)
	}
	if v := ask("blind"); v.CanSee || v.Source != llm.VisionServer {
		t.Errorf("blind: %+v", v)
	}
	if v := ask("plain"); v.Known() {
		t.Errorf("plain: %+v", v)
	}
	yes := true
	for _, c := range []struct {
		model   string
		setting *bool
		want    llm.Vision
	}{
		{"gpt-4o-mini", nil, llm.Vision{CanSee: true, Source: llm.VisionKnownModel}},
		{"openai/gpt-3.5-turbo", &yes, llm.Vision{CanSee: false, Source: llm.VisionKnownModel}},
		{"my-local-vlm", &yes, llm.Vision{CanSee: true, Source: llm.VisionSetting}},
		{"my-local-vlm", nil, llm.Vision{Source: llm.VisionUnknown}},
	} {
		if got := llm.ResolveVision(llm.Vision{Source: llm.VisionUnknown}, c.model, c.setting); got != c.want {
			t.Errorf("ResolveVision(%s) = %+v, want %+v", c.model, got, c.want)
		}
		if got := llm.VisionRefusal(c.model, c.want); (got == "") != c.want.CanSee {
			t.Errorf("refusal for %s: %q", c.model, got)
		}
	}
}

func TestImageTokens(t *testing.T) {
	for _, c := range []struct{ w, h, want int }{
		{1024, 1024, 765}, {2048, 4096, 1105}, {100, 100, 255}, {0, 0, 765},
	} {
		if got := (llm.Image{Width: c.w, Height: c.h}).Tokens(); got != c.want {
			t.Errorf("%d×%d: %d tokens, want %d", c.w, c.h, got, c.want)
		}
	}
}
