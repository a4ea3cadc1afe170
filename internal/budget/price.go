// Package budget prices what a session's model requests cost and stops a
// run at the user's limits: spending (US dollars at each model's price)
// and tokens (input + output), per session and per day, and tool calls per
// minute, which wait rather than stop.
//
// Prices: one function, Prices.Cost, for every host (the window, exec,
// ACP): a price saved in the settings for the model, else free on a server
// on this machine or the local network, else the built-in list price, else
// none. A request is priced at the model that answered it, a subagent's
// too. A request on a model with no price counts its tokens only.
//
// The day's figure is one Ledger in the data folder shared by every
// process of the user: each request's spend is appended under a file lock
// and synced before the request's answer is used, so a crash (SIGKILL
// included) loses nothing recorded. See ledger.go.
//
// A Meter is one session's: its subagents share it. It is safe for
// concurrent use.
package budget

import (
	"gatehouse/internal/protocol"
	"gatehouse/internal/settings"
)

// Prices returns a model's price and where it comes from (a
// settings.Price* source; settings.PriceUnknown: none).
type Prices func(model string) (settings.Price, string)

// FromSettings prices at the settings in effect when asked (the window's
// may change while a session runs).
func FromSettings(get func() settings.Settings) Prices {
	return func(model string) (settings.Price, string) { return get().PriceFor(model) }
}

// Cost is what u cost in US dollars at model's price; priced is false when
// the model has no known price (the cost is then 0 and does not count).
func (p Prices) Cost(model string, u protocol.Usage) (usd float64, priced bool) {
	if p == nil {
		return 0, false
	}
	price, source := p(model)
	if source == settings.PriceUnknown {
		return 0, false
	}
	return (float64(u.PromptTokens)*price.InputPerMTok + float64(u.CompletionTokens)*price.OutputPerMTok) / 1e6, true
}

// Tokens is what u counts against a token limit: input + output.
func Tokens(u protocol.Usage) int64 {
	if n := u.PromptTokens + u.CompletionTokens; n > 0 {
		return n
	}
	return u.TotalTokens
}
