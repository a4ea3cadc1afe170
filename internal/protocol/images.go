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
