package protocol

// ImageRef names an image of the conversation: a user's attachment or what
// view_image showed the model. The bytes are kept content-addressed in the
// data folder under ID (the hex SHA-256 of what the model was sent); the
// log and the events carry only this.
type ImageRef struct {
	ID   string `json:"id"`
	MIME string `json:"mime"`
	// Name is the file's name when there was one ("" for a paste).
	Name string `json:"name,omitempty"`
	// Width and Height are the image as sent; OrigWidth, OrigHeight and
	// OrigBytes as attached (it is scaled down past 2048 px).
	Width      int `json:"width"`
	Height     int `json:"height"`
	OrigWidth  int `json:"origWidth"`
	OrigHeight int `json:"origHeight"`
	OrigBytes  int `json:"origBytes"`
	Bytes      int `json:"bytes"`
}

// ImagesDroppedPayload: files dropped on the window from another
// application (a file manager), each attached for the composer or refused.
type ImagesDroppedPayload struct {
	Files []DroppedFile `json:"files"`
}

// DroppedFile is one dropped file: the saved image, or why it is none.
type DroppedFile struct {
	Name  string    `json:"name"`
	Size  int64     `json:"size"`
	Image *ImageRef `json:"image,omitempty"`
	// Refused says why the model in effect takes no image (Model names
	// it; CanMark: the user may say it sees).
	Refused string `json:"refused,omitempty"`
	Model   string `json:"model,omitempty"`
	CanMark bool   `json:"canMark,omitempty"`
	// Error says why the file is no image the app takes (its type, its size).
	Error string `json:"error,omitempty"`
}
