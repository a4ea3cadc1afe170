package settings

import (
	"fmt"
	"math"
	"net"
	"net/url"
	"strings"
)

// Price is what a model costs, in US dollars per million tokens.
type Price struct {
	InputPerMTok  float64 `json:"inputPerMTok"`
	OutputPerMTok float64 `json:"outputPerMTok"`
}

// Validate refuses negative and non-finite prices.
func (p Price) Validate() error {
	for _, v := range []float64{p.InputPerMTok, p.OutputPerMTok} {
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("a price per million tokens must be a number of 0 or more, not %v", v)
		}
	}
	return nil
}

// Where a model's price comes from.
const (
	PriceSaved   = "saved"   // set in the settings for this model
	PriceLocal   = "local"   // a server on this machine or the local network: free
	PriceBuiltIn = "builtin" // the list price of a common OpenAI model
	PriceUnknown = ""        // no price: cost is not shown
)

// builtInPrices are OpenAI's published list prices (standard tier, US
// dollars per million tokens) for common models. A saved price wins; a
// model not listed has no price until one is saved.
var builtInPrices = map[string]Price{
	"gpt-5":        {1.25, 10},
	"gpt-5-mini":   {0.25, 2},
	"gpt-5-nano":   {0.05, 0.40},
	"gpt-4.1":      {2, 8},
	"gpt-4.1-mini": {0.40, 1.60},
	"gpt-4.1-nano": {0.10, 0.40},
	"gpt-4o":       {2.50, 10},
	"gpt-4o-mini":  {0.15, 0.60},
	"o3":           {2, 8},
	"o3-mini":      {1.10, 4.40},
	"o4-mini":      {1.10, 4.40},
}

// BuiltInPrice returns the list price of model, also for a dated snapshot
// of a listed model ("gpt-4o-2024-08-06").
func BuiltInPrice(model string) (Price, bool) {
	if p, ok := builtInPrices[model]; ok {
		return p, true
	}
	best := ""
	for name := range builtInPrices {
		if strings.HasPrefix(model, name+"-2") && len(name) > len(best) {
			best = name
		}
	}
	p, ok := builtInPrices[best]
	return p, ok && best != ""
}

// PriceOf returns the price of the settings' model and where it comes from:
// a saved price, else free on a local server, else the built-in list price.
func (s Settings) PriceOf() (Price, string) { return s.PriceFor(s.Model) }

// PriceFor returns the price of model on the settings' server and where it
// comes from, as PriceOf does for the settings' own model.
func (s Settings) PriceFor(model string) (Price, string) {
	if p, ok := s.Prices[model]; ok {
		return p, PriceSaved
	}
	if LocalServer(s.BaseURL) {
		return Price{}, PriceLocal
	}
	if p, ok := BuiltInPrice(model); ok {
		return p, PriceBuiltIn
	}
	return Price{}, PriceUnknown
}

// LocalServer reports whether baseURL names a server on this machine or
// the local network (Ollama, LM Studio, vLLM at home), whose tokens cost
// nothing per call.
func LocalServer(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return false
	}
	host := u.Hostname()
	if host == "localhost" || strings.HasSuffix(host, ".local") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && (ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast())
}

// SetPrice returns prices with model's price set to p (nil: kept as it is)
// or removed (clear). It never changes the map it is given.
func SetPrice(prices map[string]Price, model string, p *Price, clear bool) map[string]Price {
	if model == "" || (p == nil && !clear) {
		return prices
	}
	out := make(map[string]Price, len(prices)+1)
	for k, v := range prices {
		out[k] = v
	}
	if clear {
		delete(out, model)
	} else {
		out[model] = *p
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
