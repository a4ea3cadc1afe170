package protocol

// UndoState says what undoing does to one file.
type UndoState string

const (
	// UndoRestore: the file is as the turn left it; undo brings back its
	// prior content.
	UndoRestore UndoState = "restore"
	// UndoChangedSince: the file changed again since the turn (a later
	// turn, the user, another program); the user chooses keep or restore.
	UndoChangedSince UndoState = "changed-since"
	// UndoNotRestorable: the prior content is not known (a command changed
	// it and nobody kept it, or it was too large for the store); Note says
	// which.
	UndoNotRestorable UndoState = "not-restorable"
	// UndoUnchanged: the file is already as it was before the turn.
	UndoUnchanged UndoState = "unchanged"
)

// EnumValues lists the values, for the TypeScript generator.
func (UndoState) EnumValues() []string {
	return []string{string(UndoRestore), string(UndoChangedSince), string(UndoNotRestorable), string(UndoUnchanged)}
}

// UndoChoice is the user's choice for a file changed since the turn.
type UndoChoice string

const (
	UndoKeep     UndoChoice = "keep"    // leave the current content
	UndoRestored UndoChoice = "restore" // bring back the turn's prior content
)

// EnumValues lists the values, for the TypeScript generator.
func (UndoChoice) EnumValues() []string { return []string{string(UndoKeep), string(UndoRestored)} }

// UndoFile is one file a turn (or an undo) changed, and what undoing it
// would do now.
type UndoFile struct {
	Path string `json:"path"`
	// By lists who changed it in the unit: tool, command, undo.
	By    []string  `json:"by"`
	State UndoState `json:"state"`
	// Note says why it cannot be restored, in words.
	Note string `json:"note,omitempty"`
	// Binary: a side is not text; the diffs are empty.
	Binary bool `json:"binary,omitempty"`
	// Operation is what undoing does to the file: add (brings back a file
	// the turn deleted), delete (removes a file the turn created), update.
	Operation FileOperation `json:"operation"`
	// Added and Removed count the lines of UndoDiff.
	Added   int `json:"added"`
	Removed int `json:"removed"`
	// TurnDiff is what the unit did (prior → after); SinceDiff what changed
	// since (after → now; changed-since only); UndoDiff what undoing writes
	// (now → prior).
	TurnDiff  string `json:"turnDiff"`
	SinceDiff string `json:"sinceDiff,omitempty"`
	UndoDiff  string `json:"undoDiff"`
	// Hunks are the "@@" chunks of UndoDiff ("path#n"), each restorable on
	// its own.
	Hunks []HunkPreview `json:"hunks,omitempty"`
	// Prior and Now are the whole contents (text only), for a side-by-side
	// view.
	Prior string `json:"prior"`
	Now   string `json:"now"`
}

// UndoSelection limits an undo: Files (empty: every file) and Hunks
// ("path#n": only those hunks of a file), and for each file changed since,
// the user's choice (missing: keep).
type UndoSelection struct {
	Files   []string              `json:"files,omitempty"`
	Hunks   []string              `json:"hunks,omitempty"`
	Choices map[string]UndoChoice `json:"choices,omitempty"`
}

// UndoAppliedPayload is an undo the user made: the undo's own unit (to undo
// it), the unit it took back, the files restored and those left, with why.
type UndoAppliedPayload struct {
	Unit     string            `json:"unit"`
	Of       string            `json:"of"`
	Restored []string          `json:"restored"`
	Skipped  map[string]string `json:"skipped,omitempty"`
}
