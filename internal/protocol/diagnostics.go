package protocol

// Diagnostic is one problem a language server reports in a file: the path
// is workspace-relative and slash-separated, Line, Col and EndLine are
// 1-based; Severity is error, warning, info or hint.
type Diagnostic struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	EndLine  int    `json:"endLine"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Source   string `json:"source,omitempty"`
	// Hunk and ShownLine place a diagnostic of a proposal in the approval
	// dialog's diff: the hunk whose new lines hold it ("" outside every
	// chosen hunk), and its line in the new side of the diff the dialog
	// shows (the whole proposal's numbering; 0 when that diff does not
	// show the line, as in a hunk left out). Line is where it would be in
	// the file as written.
	Hunk      string `json:"hunk,omitempty"`
	ShownLine int    `json:"shownLine,omitempty"`
}

// FileDiagnostics is what a proposed change of one file would introduce.
type FileDiagnostics struct {
	Path string `json:"path"`
	// Introduced are the new problems, errors first.
	Introduced []Diagnostic `json:"introduced"`
	// Hunks counts, by hunk id, the introduced errors on lines the hunk
	// adds ("" holds those outside every hunk, or of a whole-file write).
	Hunks map[string]int `json:"hunks,omitempty"`
}

// ApprovalDiagnosticsPayload: what the language servers say of the
// proposed content of a waiting request's files, checked in memory
// (nothing written). State is "checking" when the dialog opens, then
// "done", or "timeout"/"failed" with Note saying why. Selection is the
// part of the proposal checked (nil: all of it); choosing other hunks in
// the dialog (RecheckApproval) checks them again, "checking" first.
type ApprovalDiagnosticsPayload struct {
	ApprovalID string             `json:"approvalId"`
	State      string             `json:"state"`
	Files      []FileDiagnostics  `json:"files,omitempty"`
	Note       string             `json:"note,omitempty"`
	Selection  *ProposalSelection `json:"selection,omitempty"`
}

// ProposalSelection is a part of a proposal, as a partial decision names
// it: files taken whole and hunks ("path#n") of the others.
type ProposalSelection struct {
	Files []string `json:"files"`
	Hunks []string `json:"hunks"`
}

// LanguageServer is a language server as the Problems panel shows it.
type LanguageServer struct {
	Name    string `json:"name"`
	Command string `json:"command"`
	// State is starting, ready, crashed (it restarts on the next need,
	// after a backoff), failed or stopped.
	State    string `json:"state"`
	Error    string `json:"error,omitempty"`
	Restarts int    `json:"restarts"`
	Confined bool   `json:"confined"`
}

// DiagnosticsUpdatedPayload: the language servers' current diagnostics of
// the files they have open, by path, and the servers' states (the Problems
// panel). Each event holds the whole state.
type DiagnosticsUpdatedPayload struct {
	Files   map[string][]Diagnostic `json:"files"`
	Servers []LanguageServer        `json:"servers"`
}
