package protocol

import "encoding/json"

// PreviewKind says which part of a Preview is set.
type PreviewKind string

const (
	// PreviewFiles: a dry run of write_file or apply_patch (Files).
	PreviewFiles PreviewKind = "files"
	// PreviewCommand: a bash call (Command).
	PreviewCommand PreviewKind = "command"
	// PreviewArgs: any other tool; its arguments (Args, ArgsText).
	PreviewArgs PreviewKind = "args"
)

// EnumValues lists the values, for the TypeScript generator.
func (PreviewKind) EnumValues() []string {
	return []string{string(PreviewFiles), string(PreviewCommand), string(PreviewArgs)}
}

// Preview is what an approval dialog shows of a call before it runs. It is
// computed before the question is asked: file changes are a dry run (nothing
// written yet), a command is parsed into its segments.
type Preview struct {
	Kind PreviewKind `json:"kind"`
	// Summary is one line for a notification or a collapsed card
	// ("apply_patch: 2 files, +10 −3", "bash exec: go test ./...").
	Summary string `json:"summary"`
	// ReadOnly is set when the call only reads: it asks because the mode is
	// manual.
	ReadOnly bool `json:"readOnly,omitempty"`
	// Files (kind files): one entry per operation, in the order they apply.
	Files []FilePreview `json:"files,omitempty"`
	// Partial (kind files, apply_patch): the dialog may offer a checkbox per
	// file and per hunk and answer with a decision of kind partial.
	Partial bool `json:"partial,omitempty"`
	// Command (kind command): the bash call.
	Command *CommandPreview `json:"command,omitempty"`
	// Args (kind args) are the call's arguments as JSON; ArgsText is the same
	// pretty-printed for display.
	Args     json.RawMessage `json:"args,omitempty"`
	ArgsText string          `json:"argsText,omitempty"`
	// Mcp (kind args) names the MCP server and tool of the call; its
	// ArgsText folds long strings.
	Mcp *McpPreview `json:"mcp,omitempty"`
	// Web (kind args) is a web_fetch call: the URL, its domain, and
	// whether the session fetched from that domain before.
	Web *WebPreview `json:"web,omitempty"`
}

// WebPreview is a web_fetch call as the dialog shows it.
type WebPreview struct {
	// URL is the full URL as the model gave it; FetchURL the URL fetched
	// instead, when web_fetch rewrites it (a GitHub file page to its raw
	// file).
	URL      string `json:"url"`
	FetchURL string `json:"fetchUrl,omitempty"`
	// Domain is the URL's host name (lower case, no port): the key of an
	// "allow this domain" session rule.
	Domain string `json:"domain"`
	// NewDomain is set when no call of this session fetched from Domain.
	NewDomain bool `json:"newDomain"`
}

// McpPreview is a call of an MCP server's tool as the dialog shows it.
type McpPreview struct {
	// Server is the server's name in the user's config; Tool the tool's
	// name on the server.
	Server      string `json:"server"`
	Tool        string `json:"tool"`
	Description string `json:"description,omitempty"`
}

// FileOperation is what an operation does to its file.
type FileOperation string

const (
	FileAdd    FileOperation = "add"
	FileUpdate FileOperation = "update"
	FileDelete FileOperation = "delete"
	FileMove   FileOperation = "move"
)

// EnumValues lists the values, for the TypeScript generator.
func (FileOperation) EnumValues() []string {
	return []string{string(FileAdd), string(FileUpdate), string(FileDelete), string(FileMove)}
}

// FilePreview is the dry run of one file operation.
type FilePreview struct {
	// Path is the file written (for a move: the destination), as the model
	// gave it; decisions of kind partial name files by it.
	Path      string        `json:"path"`
	Operation FileOperation `json:"operation"`
	// MovedFrom is the source of a move.
	MovedFrom string `json:"movedFrom,omitempty"`
	// ResolvedPath and ResolvedFrom are where Path and MovedFrom really are,
	// workspace-relative, when that differs from what the model wrote (a
	// symlinked folder, "./a/../b"); empty otherwise.
	ResolvedPath string `json:"resolvedPath,omitempty"`
	ResolvedFrom string `json:"resolvedFrom,omitempty"`
	// Replaces: the operation writes a whole new content over a file that
	// exists (write_file onto an existing file, an apply_patch Add File for
	// a file that exists, a Move to onto one). Diff is against the old
	// content; for a move, Diff is the moved file's edit and ReplacedDiff
	// goes from what the destination held to its new content.
	Replaces     bool   `json:"replaces,omitempty"`
	ReplacedDiff string `json:"replacedDiff,omitempty"`
	Added        int    `json:"added"`
	Removed      int    `json:"removed"`
	// Diff is the unified diff of the whole operation (3 lines of context).
	Diff string `json:"diff"`
	// Hunks are the "@@" chunks of an apply_patch update, each selectable
	// on its own; empty for adds, deletes and write_file.
	Hunks []HunkPreview `json:"hunks,omitempty"`
	// OldHash is the SHA-256 (hex) of the file read (for a move: MovedFrom)
	// when previewed, or "absent". Applying refuses with
	// changed_since_preview when the file no longer has it.
	OldHash string `json:"oldHash"`
	// OldContent and NewContent are the whole file before and after, for a
	// side-by-side view; both are empty and ContentOmitted is set when either
	// is larger than the preview keeps (the diff is always there).
	OldContent     string `json:"oldContent"`
	NewContent     string `json:"newContent"`
	ContentOmitted bool   `json:"contentOmitted,omitempty"`
	// Unrestorable says why undo could not bring back the file's content
	// from before this change (it is larger than the undo store keeps);
	// "" when it can.
	Unrestorable string `json:"unrestorable,omitempty"`
}

// HunkPreview is one "@@" chunk of an update. ID is "path#n" (n from 1),
// the id a partial decision lists in Hunks. Lines are 1-based, in the old
// and new content of the whole operation.
type HunkPreview struct {
	ID       string `json:"id"`
	OldStart int    `json:"oldStart"`
	OldLines int    `json:"oldLines"`
	NewStart int    `json:"newStart"`
	NewLines int    `json:"newLines"`
	// Diff is this chunk alone as a unified diff hunk ("@@ -a,b +c,d @@" and
	// its lines).
	Diff string `json:"diff"`
}

// CommandPreview is a bash call as the dialog shows it.
type CommandPreview struct {
	// Action is exec, start, write, stop, status, logs or list.
	Action string `json:"action"`
	// Command is the shell text (exec, start), or for write and stop the
	// command of the process addressed.
	Command string `json:"command,omitempty"`
	// Cwd is the absolute folder the command starts in (exec, start).
	Cwd       string `json:"cwd,omitempty"`
	ProcessID string `json:"processId,omitempty"`
	// Input is what write sends to the process.
	Input string `json:"input,omitempty"`
	// Segments are the simple commands of Command, in source order,
	// including those nested in substitutions, subshells and `bash -c`.
	Segments []CommandSegment `json:"segments,omitempty"`
	// ParseError is set when Command is not valid shell: no rule can cover
	// it and Segments is empty.
	ParseError string `json:"parseError,omitempty"`
	// Confined (exec, start): the command will run confined by the OS
	// sandbox, writing only in the workspace, temp, the scratch folder and
	// the tool caches. False: it can write anywhere the user can (the
	// sandbox is off or unavailable; the header says why).
	Confined bool `json:"confined,omitempty"`
	// Sandbox (exec, start) is the dialog's Sandbox line in words, as every
	// host shows it (approval.SandboxLine): for a confined command, the
	// layers and what it can reach (writes, denied reads, sockets, network,
	// signals), as the tool said.
	Sandbox string `json:"sandbox,omitempty"`
}

// CommandSegment is one simple command with the warnings the dialog shows.
type CommandSegment struct {
	// Text is the segment's source text.
	Text string `json:"text"`
	// Args are its words, unquoted when literal, as written otherwise.
	Args []string `json:"args"`
	// Deletes: removes files (rm, rmdir, unlink, shred, find -delete, git clean...).
	Deletes bool `json:"deletes,omitempty"`
	// WritesOutside: writes (a redirection, or a file argument of a command
	// that writes) outside the workspace or into a protected place, or to a
	// place that cannot be told before it runs.
	WritesOutside bool `json:"writesOutside,omitempty"`
	// Network: reaches the network (curl, wget, ssh, git push, npm install...).
	Network bool `json:"network,omitempty"`
	// Elevates: gains privileges (sudo, su, doas, pkexec).
	Elevates bool `json:"elevates,omitempty"`
	// WritesGit: writes into a .git folder or a file named .git (a
	// redirection, or a file argument of cp, mv, tee, touch, sed -i, an
	// output option...), which can make the next git command run code. git
	// itself writing there is normal and not flagged.
	WritesGit bool `json:"writesGit,omitempty"`
	// Opaque: runs code a rule cannot see (an interpreter with -c, eval,
	// xargs, env, a substitution...); it never rides on a session rule.
	Opaque bool `json:"opaque,omitempty"`
	// ReadsOutside lists the paths, as written, that the segment reads (a
	// file operand, an input redirection, a folder it works in) outside the
	// workspace or in a protected place: "~/.ssh/id_rsa".
	ReadsOutside []string `json:"readsOutside,omitempty"`
	// WritesOutsideTo lists the paths, as written, behind WritesOutside when
	// they are known.
	WritesOutsideTo []string `json:"writesOutsideTo,omitempty"`
	// ProtectedPaths are those of ReadsOutside and WritesOutsideTo that are
	// in the workspace but in a protected place (.git for writes, .ssh...).
	ProtectedPaths []string `json:"protectedPaths,omitempty"`
	// Destructive says in plain words what the segment destroys that cannot
	// be taken back ("discards your uncommitted changes", "rewrites history
	// on the remote"); empty when nothing. A destructive segment never rides
	// on a session rule.
	Destructive string `json:"destructive,omitempty"`
	// GitCode names the git setting or variable the segment sets that makes
	// git run a command ("core.fsmonitor", "alias.st", "GIT_CONFIG_COUNT"):
	// a later, harmless-looking git command runs code the dialog never
	// showed. Such a segment never rides on a session rule.
	GitCode string `json:"gitCode,omitempty"`
	// Warnings are the segment's warnings in words, the worst first, as
	// every host shows them (approval.SegmentWarnings).
	Warnings []string `json:"warnings,omitempty"`
}
