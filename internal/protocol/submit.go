package protocol

// Submission is everything the composer sends as one message, through the
// one submit method every host path uses: the text as typed, the files,
// ranges, folders and sessions it @-mentions (attached after the text), the
// pictures attached to it, and the "/" entry it runs, if any.
type Submission struct {
	Text     string     `json:"text"`
	Mentions []string   `json:"mentions,omitempty"`
	Images   []ImageRef `json:"images,omitempty"`
	// Command is the "/" entry the message runs: its expansion of Args
	// replaces Text as the message the model is sent.
	Command *SlashCall `json:"command,omitempty"`
}

// SlashCall names a "/" entry and the arguments typed after it.
type SlashCall struct {
	Name string `json:"name"`
	Args string `json:"args"`
}
