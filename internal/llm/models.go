package llm

import (
	"context"
	"slices"
)

// ListModels returns the ids of the models the server at baseURL lists
// (GET /models), sorted and without duplicates; an empty list when it lists
// none. It makes no retries; ctx bounds the call. A failure is an *Error in
// the same words as Stream's ("The model server refused the key.", "... is
// unreachable."), except that a server without a /models endpoint is said
// to be one that does not list its models.
func ListModels(ctx context.Context, api API, baseURL, apiKey string) ([]string, error) {
	c, err := New(Config{API: api, BaseURL: baseURL, APIKey: apiKey})
	if err != nil {
		return nil, err
	}
	page, err := c.oa.Models.List(ctx)
	if err != nil {
		e := classify(ctx, err)
		if e.Kind == KindModelUnknown {
			// 404 on /models itself: no model was named, so "does not know
			// this model" would mislead.
			e = &Error{Kind: KindBadRequest, Status: e.Status, Code: e.Code, Err: e.Err,
				Message: "The model server does not list its models; type the model's name in Settings."}
		}
		return nil, e
	}
	ids := make([]string, 0, len(page.Data))
	for _, m := range page.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}
