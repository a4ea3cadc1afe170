// Package watch tells Gatehouse what changes in the workspace: a Watcher over
// fsnotify keeps the folder tree watched and delivers coalesced batches of
// changes; a Tracker attributes the changes of a session (the agent's file
// tools, its shell commands, or someone outside) and keeps each changed
// file's content from before the session touched it.
//
// Watching. fsnotify watches folders, not trees: the Watcher walks the tree
// at Start, watches every folder that is not ignored (BuiltinIgnored names
// and .gitignore files, nested ones included), watches folders as they
// appear (walking them at once, so files created inside before the watch
// took hold are not missed) and releases the watches of folders that go or
// are renamed. Ignored folders are never entered.
//
// Delivery rules.
//
//   - Changes are coalesced per path into batches: a batch is delivered once
//     no change arrived for Options.Quiet, or at the latest Options.MaxWait
//     after its first change. Timing comes from an injectable Clock.
//   - A batch says what happened since the previous one, decided by looking
//     at the disk when it is delivered: create (the path was not there
//     before), write, remove or rename (gone; rename when the system said
//     so). A path created and removed within one batch is not reported; a
//     removed folder reports everything it held.
//   - Batches are delivered in order, one at a time, to every subscriber
//     (OnBatch, OnChange) in the order they subscribed. Nothing is dropped:
//     when the system itself drops events (its queue overflowed) the tree is
//     rescanned and the differences are delivered as changes.
//   - The watch limit: when Options.MaxWatches or the system's inotify limit
//     is reached, the folders left over are rescanned every
//     Options.RescanEvery instead, and Options.OnDegraded is called once
//     with a sentence for the UI. Nothing crashes, changes are just slower.
//   - Stop releases every watch and waits for every goroutine and callback
//     of the watcher; no batch is delivered after it returns.
//
// Stale previews. An approval dialog that shows a diff subscribes to its
// files with OnChange and marks itself stale when the callback fires:
//
//	cancel := w.OnChange(plan.Paths, func(changed []string) {
//		gate.MarkStale(approvalID, changed)
//	})
//	defer cancel() // when the dialog is answered
//
// The callback runs on the watcher's goroutine; hand the news on (publish an
// event) and return.
package watch
