package gui

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
)

// maxHeldDrops bounds the refused drops kept for a retry; the oldest goes first.
const maxHeldDrops = 32

// heldDrops are the paths of dropped files the model in effect refused, each
// behind an opaque token the page may use once to attach it again after the
// user marks the model as one that sees (AttachDropped). Only paths the
// window's drop handler received are held, never a path the page names.
type heldDrops struct {
	mu    sync.Mutex
	paths map[string]string // token → the path GTK delivered
	order []string          // tokens, oldest first
}

// hold keeps path and returns its token.
func (h *heldDrops) hold(path string) string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	token := hex.EncodeToString(b[:])
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.paths == nil {
		h.paths = map[string]string{}
	}
	h.paths[token] = path
	h.order = append(h.order, token)
	for len(h.order) > maxHeldDrops {
		delete(h.paths, h.order[0])
		h.order = h.order[1:]
	}
	return token
}

// take returns token's path and forgets it.
func (h *heldDrops) take(token string) (string, bool) {
	h.mu.Lock()
	defer h.mu.Unlock()
	path, ok := h.paths[token]
	if !ok {
		return "", false
	}
	delete(h.paths, token)
	for i, t := range h.order {
		if t == token {
			h.order = append(h.order[:i], h.order[i+1:]...)
			break
		}
	}
	return path, true
}

// errDropGone: a token that was used, forgotten or never given.
var errDropGone = errors.New("this dropped file is no longer held (it was attached, removed, or dropped too long ago); drop it on the window again")

// AttachDropped attaches again a dropped file the model refused, by the
// token of its images.dropped event, once the user said the model sees.
// A token is good once: a refusal again comes with a new one.
func (a *App) AttachDropped(token string) (AttachResult, error) {
	path, ok := a.drops.take(token)
	if !ok {
		return AttachResult{}, errDropGone
	}
	f := a.attachDropped(path)
	if f.Error != "" {
		return AttachResult{}, errors.New(f.Error)
	}
	return AttachResult{Image: f.Image, Refused: f.Refused, Model: f.Model, CanMark: f.CanMark, Token: f.Token}, nil
}

// ForgetDropped forgets a refused drop the user removed from the composer.
func (a *App) ForgetDropped(token string) { a.drops.take(token) }
