package protocol

// McpResource is one resource an MCP server lists, as the composer's @
// picker offers it and a tool card links it.
type McpResource struct {
	// Server names the server that lists it; URI is the resource's own.
	Server      string `json:"server"`
	URI         string `json:"uri"`
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	MimeType    string `json:"mimeType,omitempty"`
	// Size is the server's claim of the content's bytes (0: not said).
	Size int64 `json:"size,omitempty"`
}

// McpResourceContent is one part of a read resource as the window shows
// it: its text, or a picture (Image, base64), or a line saying what was
// left out (Note: binary content, or over the cap).
type McpResourceContent struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	Image    string `json:"image,omitempty"`
	Note     string `json:"note,omitempty"`
}

// McpResourceRead is what reading a resource gave (the card's "open").
type McpResourceRead struct {
	Server   string               `json:"server"`
	URI      string               `json:"uri"`
	Contents []McpResourceContent `json:"contents"`
}
