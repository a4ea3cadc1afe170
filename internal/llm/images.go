package llm

import (
	"encoding/base64"
	"math"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
)

// Image is a picture a message carries: the user's attachment, or what
// view_image read. Data is the encoded image (PNG or JPEG), sent as a data
// URL with detail "auto"; ID is its content address in the session's
// image store, which is what a log keeps, never the bytes.
type Image struct {
	ID     string `json:"id"`
	MIME   string `json:"mime"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Data   []byte `json:"-"`
}

// Tokens is what OpenAI counts for the image at detail "high" (what
// "auto" picks for a screenshot): scaled to fit 2048×2048, then its
// short side to 768, it costs 85 tokens plus 170 per 512-px tile. Other
// providers count within a factor of two of it; the agent's estimate
// learns the rest from the server's usage. An image of unknown size
// counts as 1024×1024 (765).
func (im Image) Tokens() int {
	w, h := float64(im.Width), float64(im.Height)
	if w <= 0 || h <= 0 {
		w, h = 1024, 1024
	}
	if f := 2048 / max(w, h); f < 1 {
		w, h = w*f, h*f
	}
	if f := 768 / min(w, h); f < 1 {
		w, h = w*f, h*f
	}
	tiles := int(math.Ceil(w/512)) * int(math.Ceil(h/512))
	return 85 + 170*tiles
}

// dataURL is im as a data URL.
func (im Image) dataURL() string {
	return "data:" + im.MIME + ";base64," + base64.StdEncoding.EncodeToString(im.Data)
}

// imageDetail is the detail every image is sent with: openai-go marks it
// required on Chat Completions, and "auto" lets the server choose.
const imageDetail = "auto"

// chatUserContent is a user message with images as Chat Completions content
// parts: the text (when any), then one image_url part per image.
func chatUserContent(text string, ims []Image) openai.ChatCompletionMessageParamUnion {
	var parts []openai.ChatCompletionContentPartUnionParam
	if text != "" {
		parts = append(parts, openai.TextContentPart(text))
	}
	for _, im := range ims {
		parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{
			URL: im.dataURL(), Detail: imageDetail}))
	}
	return openai.UserMessage(parts)
}

// toolImagesNote introduces the images of a tool result on Chat
// Completions, whose tool messages carry text only: they follow in a user
// message of their own.
func toolImagesNote(callID string) string {
	return "The image read by tool call " + callID + ":"
}

// responsesUserContent is a user message with images as Responses input
// content: input_text, then one input_image per image.
func responsesUserContent(text string, ims []Image) responses.ResponseInputMessageContentListParam {
	var parts responses.ResponseInputMessageContentListParam
	if text != "" {
		parts = append(parts, responses.ResponseInputContentUnionParam{OfInputText: &responses.ResponseInputTextParam{Text: text}})
	}
	for _, im := range ims {
		parts = append(parts, responses.ResponseInputContentUnionParam{OfInputImage: &responses.ResponseInputImageParam{
			ImageURL: openai.String(im.dataURL()), Detail: responses.ResponseInputImageDetail(imageDetail)}})
	}
	return parts
}

// responsesToolOutput is a function call's output with images: its text,
// then the images, as the Responses API takes them inside the output.
func responsesToolOutput(text string, ims []Image) responses.ResponseFunctionCallOutputItemListParam {
	var out responses.ResponseFunctionCallOutputItemListParam
	out = append(out, responses.ResponseFunctionCallOutputItemUnionParam{OfInputText: &responses.ResponseInputTextContentParam{Text: text}})
	for _, im := range ims {
		out = append(out, responses.ResponseFunctionCallOutputItemUnionParam{OfInputImage: &responses.ResponseInputImageContentParam{
			ImageURL: openai.String(im.dataURL()), Detail: responses.ResponseInputImageContentDetail(imageDetail)}})
	}
	return out
}
