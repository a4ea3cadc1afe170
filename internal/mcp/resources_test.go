package mcp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"slices"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"gatehouse/internal/images"
	"gatehouse/internal/slash"
)

// waitFor polls cond until it holds, failing with what after 20 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func findResource(m *Manager, uri string) (Resource, bool) {
	i := slices.IndexFunc(m.Resources(), func(r Resource) bool { return r.URI == uri })
	if i < 0 {
		return Resource{}, false
	}
	return m.Resources()[i], true
}

const featuresURI = "demo://resource/static/document/features.md"

// The reference server's resources are listed, read, and mentioned: the
// text a mention attaches is the resource's own.
func TestResourcesListedReadAndMentioned(t *testing.T) {
	m := everything(t, Options{})
	waitFor(t, "the static documents listed", func() bool { _, ok := findResource(m, featuresURI); return ok })
	r, _ := findResource(m, featuresURI)
	if r.Server != "everything" || r.Name != "features.md" || r.MimeType != "text/markdown" {
		t.Fatalf("resource %+v", r)
	}
	mention := ResourceMention("everything", featuresURI)
	if s, u, ok := m.ParseMention(mention); !ok || s != "everything" || u != featuresURI {
		t.Fatalf("ParseMention(%q) = %q %q %v", mention, s, u, ok)
	}
	text, ims, err := m.MentionText(context.Background(), mention, nil)
	if err != nil || len(ims) != 0 {
		t.Fatal(err, ims)
	}
	if !strings.Contains(text, `<resource server="everything" uri="`+featuresURI+`" mimeType="text/markdown">`) ||
		!strings.Contains(text, "# Everything Server - Features") {
		t.Fatalf("attached %.400s", text)
	}
	if _, _, err := m.MentionText(context.Background(), ResourceMention("everything", "demo://resource/nope"), nil); err == nil ||
		!strings.Contains(err.Error(), "could not read demo://resource/nope") {
		t.Fatalf("an unknown resource: %v", err)
	}
	if _, _, err := m.MentionText(context.Background(), ResourceMention("gone", featuresURI), nil); err == nil {
		t.Fatal("a mention of a server not configured read something")
	}
	open, err := m.Open(context.Background(), "everything", featuresURI)
	if err != nil || len(open.Contents) != 1 || !strings.Contains(open.Contents[0].Text, "Everything Server") {
		t.Fatalf("open %+v %v", open, err)
	}
}

// A resource the server adds (gzip-file-as-resource registers one) is
// listed after its notifications/resources/list_changed; its binary
// content is a line, not bytes, in a message.
func TestResourceListChangedRefreshes(t *testing.T) {
	m := everything(t, Options{})
	waitFor(t, "the static documents listed", func() bool { _, ok := findResource(m, featuresURI); return ok })
	const uri = "demo://resource/session/note.txt.gz"
	if _, ok := findResource(m, uri); ok {
		t.Fatal("the session resource is listed before it exists")
	}
	heard := make(chan struct{}, 100)
	stop := m.Watch(func() { heard <- struct{}{} })
	defer stop()
	data := "data:text/plain;base64," + base64.StdEncoding.EncodeToString([]byte("hello"))
	out := text(t, runAsync(context.Background(), findTool(t, m, "mcp__everything__gzip-file-as-resource"), `{"name":"note.txt.gz","data":"`+data+`"}`))
	if !strings.Contains(out, uri) {
		t.Fatalf("result %s", out)
	}
	waitFor(t, "the new resource listed", func() bool { _, ok := findResource(m, uri); return ok })
	select {
	case <-heard:
	default:
		t.Fatal("Watch did not hear the change")
	}
	got, _, err := m.MentionText(context.Background(), ResourceMention("everything", uri), nil)
	if err != nil || !strings.Contains(got, "[not attached: application/gzip") {
		t.Fatalf("binary mention %q %v", got, err)
	}
}

// A picture resource is sent as a picture to a model that sees, and is a
// line for one that does not.
// (The reference server lists no picture, so this one is made here.)
func TestMentionedPictureResource(t *testing.T) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 3, 2))); err != nil {
		t.Fatal(err)
	}
	pic := buf.Bytes()
	var kept []string
	keep := func(name string, data []byte) (images.Image, error) {
		kept = append(kept, name)
		return images.Prepare(name, data)
	}
	var shown []images.Image
	line := mentionPart(&sdk.ResourceContents{URI: "x://pic", MIMEType: "image/png", Blob: pic}, keep, &shown)
	if len(shown) != 1 || !strings.Contains(line, "the picture follows") || kept[0] != "x://pic" {
		t.Fatalf("%q %v", line, shown)
	}
	shown = nil
	line = mentionPart(&sdk.ResourceContents{URI: "x://pic", MIMEType: "image/png", Blob: pic}, nil, &shown)
	if len(shown) != 0 || !strings.Contains(line, "cannot see") {
		t.Fatalf("%q", line)
	}
	long := strings.Repeat("é", MaxMentionChars+1)
	if line := mentionPart(&sdk.ResourceContents{URI: "x://t", Text: long}, nil, &shown); !strings.Contains(line, "over the 100000") {
		t.Fatalf("%.200q", line)
	}
}

// The reference server's prompts are "/" entries with their arguments;
// one expands, with its required argument enforced.
func TestPromptsExpand(t *testing.T) {
	m := everything(t, Options{})
	var entries []slash.Command
	waitFor(t, "the prompts listed", func() bool {
		entries, _ = m.Prompts()
		return len(entries) > 0
	})
	byName := map[string]slash.Command{}
	for _, e := range entries {
		byName[e.Name] = e
	}
	args, ok := byName["everything:args-prompt"]
	if !ok {
		t.Fatalf("entries %+v", entries)
	}
	if args.Description != "A prompt with two arguments, one required and one optional" || args.Source != "MCP server everything" ||
		len(args.Arguments) != 2 || args.Arguments[0] != (slash.Arg{Name: "city", Description: "Name of the city", Required: true}) {
		t.Fatalf("entry %+v", args)
	}
	got, err := args.Expand(`city=Paris state="Ile de France"`)
	if err != nil || got != "What's weather in Paris, Ile de France?" {
		t.Fatalf("%q %v", got, err)
	}
	if _, err := args.Expand(`state=Texas`); err == nil || !strings.Contains(err.Error(), "needs city") {
		t.Fatalf("missing city: %v", err)
	}
	if _, err := args.Expand(`city=Paris country=FR`); err == nil || !strings.Contains(err.Error(), `no argument "country"`) {
		t.Fatalf("unknown argument: %v", err)
	}
	if got, err := byName["everything:simple-prompt"].Expand(""); err != nil || got != "This is a simple prompt without arguments." {
		t.Fatalf("%q %v", got, err)
	}
}

// A prompt the server adds later is offered after prompts/list_changed.
func TestPromptListChangedRefreshes(t *testing.T) {
	e, _ := fakeEntry(t, "fake", "prompts")
	m := newTestManager(t, Options{}, e)
	names := func() []string {
		es, _ := m.Prompts()
		var out []string
		for _, e := range es {
			out = append(out, e.Name)
		}
		return out
	}
	waitFor(t, "the first prompt", func() bool { return slices.Contains(names(), "fake:hello") })
	if _, err := findTool(t, m, "mcp__fake__add-prompt").Run(context.Background(), []byte(`{"text":"Later"}`)); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the added prompt", func() bool { return slices.Contains(names(), "fake:later") })
	es, _ := m.Prompts()
	for _, e := range es {
		if e.Name == "fake:later" {
			if got, err := e.Expand(""); err != nil || got != "the prompt Later" {
				t.Fatalf("%q %v", got, err)
			}
		}
	}
}

func TestParseArgs(t *testing.T) {
	for in, want := range map[string]map[string]string{
		``:                          {},
		`a=1 b=two`:                 {"a": "1", "b": "two"},
		`a="x y" b=""`:              {"a": "x y", "b": ""},
		`q="say \"hi\" \\ ok"`:      {"q": `say "hi" \ ok`},
		"  a=1\tb=2  ":              {"a": "1", "b": "2"},
		`a=` + QuoteArg(`p "q" \r`): {"a": `p "q" \r`},
	} {
		got, err := ParseArgs(in)
		if err != nil || len(got) != len(want) {
			t.Errorf("ParseArgs(%q) = %v %v", in, got, err)
			continue
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("ParseArgs(%q)[%s] = %q, want %q", in, k, got[k], v)
			}
		}
	}
	for _, bad := range []string{`word`, `=x`, `a="open`, `a=1 a=2`} {
		if _, err := ParseArgs(bad); err == nil {
			t.Errorf("ParseArgs(%q) took it", bad)
		}
	}
}

// A result's resource links and embedded resources are listed beside its
// content, as the server's, and a link opens (is read) on request.
func TestResultResourcesAreListedAndOpen(t *testing.T) {
	m := everything(t, Options{})
	out := text(t, runAsync(context.Background(), findTool(t, m, "mcp__everything__get-resource-links"), `{"count":2}`))
	var res struct {
		Resources []resourceRef `json:"resources"`
	}
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Resources) != 2 {
		t.Fatalf("result %s: %v", out, err)
	}
	link := res.Resources[1]
	if link.Server != "everything" || link.URI != "demo://resource/dynamic/text/2" || link.Embedded {
		t.Fatalf("link %+v", link)
	}
	open, err := m.Open(context.Background(), link.Server, link.URI)
	if err != nil || len(open.Contents) != 1 || !strings.Contains(open.Contents[0].Text, "Resource 2") {
		t.Fatalf("open %+v %v", open, err)
	}
	blob, err := m.Open(context.Background(), "everything", res.Resources[0].URI)
	if err != nil || len(blob.Contents) != 1 || blob.Contents[0].Text != "" || blob.Contents[0].Note == "" {
		t.Fatalf("a binary resource opened as %+v %v", blob, err)
	}
	out = text(t, runAsync(context.Background(), findTool(t, m, "mcp__everything__get-resource-reference"), `{"resourceType":"Text","resourceId":3}`))
	if err := json.Unmarshal([]byte(out), &res); err != nil || len(res.Resources) != 1 || !res.Resources[0].Embedded ||
		res.Resources[0].URI != "demo://resource/dynamic/text/3" {
		t.Fatalf("embedded %s: %v", out, err)
	}
}
