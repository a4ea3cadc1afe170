package protocol

// Questions from MCP servers (elicitation): a server asks the user for a
// few values in a small form. The window shows it as it shows the model's
// ask_user question, naming the server; `exec` asks on its terminal and
// ACP through the editor's own form.

// Form field types.
const (
	FieldString  = "string"
	FieldNumber  = "number"
	FieldInteger = "integer"
	FieldBoolean = "boolean"
	FieldEnum    = "enum"
)

// FormField is one value a form asks for.
type FormField struct {
	// Name is the key of the answer's value.
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Type is string, number, integer, boolean or enum.
	Type string `json:"type"`
	// Format of a string: email, uri, date or date-time ("": any text).
	Format string `json:"format,omitempty"`
	// Options of an enum, in the server's order.
	Options  []FormOption `json:"options,omitempty"`
	Required bool         `json:"required,omitempty"`
	// Default is the value the form starts with (nil: none).
	Default any `json:"default,omitempty"`
	// Min and Max bound a number; MinLength and MaxLength a string.
	Min       *float64 `json:"min,omitempty"`
	Max       *float64 `json:"max,omitempty"`
	MinLength *int     `json:"minLength,omitempty"`
	MaxLength *int     `json:"maxLength,omitempty"`
}

// FormOption is one choice of an enum field: the value sent and the title
// shown (the value when the server gives none).
type FormOption struct {
	Value string `json:"value"`
	Title string `json:"title,omitempty"`
}

// Answers to a server's question.
const (
	AnswerAccept  = "accept"
	AnswerDecline = "decline"
	AnswerCancel  = "cancel"
)

// QuestionAskedPayload: an MCP server asks the user (question.asked). The
// call that caused it is CallID ("" when the app could not tell which call
// it came from: the question names the server only).
type QuestionAskedPayload struct {
	QuestionID string `json:"questionId"`
	CallID     string `json:"callId,omitempty"`
	Server     string `json:"server"`
	// Workspace: the server is the workspace's own (its .gatehouse/mcp.json).
	Workspace bool        `json:"workspace,omitempty"`
	Message   string      `json:"message"`
	Fields    []FormField `json:"fields"`
}

// QuestionResolvedPayload: the question was answered (accept, decline or
// cancel), or it ended with its call.
type QuestionResolvedPayload struct {
	QuestionID string `json:"questionId"`
	Action     string `json:"action"`
}
