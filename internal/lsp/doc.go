// Package lsp runs real language servers (gopls, typescript-language-server,
// pyright, or the user's) for a session and reads their diagnostics: after
// every applied edit, the result the model reads ends with the problems the
// edit introduced or fixed in the files it touched (Middleware); before
// approval, the proposed content is checked as an in-memory overlay
// (Check with overlay set), nothing written.
//
// One JSON-RPC client (Conn) speaks LSP's framing over each server's
// stdin and stdout. A Manager belongs to one session: each server starts on
// the first need for a file it checks, one per language, with the workspace
// as its root, and stops when the session closes (Close). The host launches
// it under the supervisor helper, confined like the session's commands
// (Helper), so its tree ends with the app even when the app is killed; its
// environment holds no API key, has the go command on PATH (from the app's
// own PATH or Go's install folder when the login environment lacks it),
// keeps the Go toolchain local and never downloads modules
// (GOTOOLCHAIN=local, GOPROXY=off).
//
// Push diagnostics have no "done" signal: a check sends each document's
// content with a new version and waits until the server published for that
// version (or, for a server that sends no versions, published after the
// change), then for a quiet period without news; a document whose
// diagnostics a server republishes only when they change (gopls) counts
// as unchanged after a longer silence. pyright and tsserver check open
// files only, so a check opens the files it asks about and compares only
// those. A check holds its server's check lock, so an overlay never shows
// up in an edit's before-and-after comparison. A crashed server is shown
// (Statuses) and starts again on the next need, after a backoff doubling
// from 250 ms to 30 s.
package lsp
