package llm_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"

	"gatehouse/internal/llm"
	"gatehouse/internal/llm/llmtest"
)

func TestListModels(t *testing.T) {
	clearEnv(t)
	srv := llmtest.Start(t, script(t, `{"apiKey": "k", "models": ["m2", "a1", "m10"], "responses": []}`))
	got, err := llm.ListModels(context.Background(), llm.APIChat, srv.URL, "k")
	if err != nil || !slices.Equal(got, []string{"a1", "m10", "m2"}) {
		t.Fatalf("got %v, %v", got, err)
	}

	_, err = llm.ListModels(context.Background(), llm.APIChat, srv.URL, "wrong")
	if llm.KindOf(err) != llm.KindKeyRejected || err.Error() != "The model server refused the key." {
		t.Fatalf("wrong key: %v (%s)", err, llm.KindOf(err))
	}

	_, err = llm.ListModels(context.Background(), llm.APIChat, closedPort(t), "k")
	if llm.KindOf(err) != llm.KindUnreachable || err.Error() != "The model server is unreachable." {
		t.Fatalf("closed port: %v (%s)", err, llm.KindOf(err))
	}

	_, err = llm.ListModels(context.Background(), llm.APIChat, "not a url", "k")
	if llm.KindOf(err) != llm.KindBadConfig {
		t.Fatalf("bad URL: %v (%s)", err, llm.KindOf(err))
	}

	noList := httptest.NewServer(http.NotFoundHandler())
	defer noList.Close()
	_, err = llm.ListModels(context.Background(), llm.APIChat, noList.URL+"/v1", "k")
	if llm.KindOf(err) != llm.KindBadRequest || err.Error() != "The model server does not list its models; type the model's name in Settings." {
		t.Fatalf("no /models: %v (%s)", err, llm.KindOf(err))
	}

	none := llmtest.Start(t, script(t, `{"responses": []}`))
	got, err = llm.ListModels(context.Background(), llm.APIChat, none.URL, "")
	if err != nil || got == nil || len(got) != 0 {
		t.Fatalf("no models: %#v, %v", got, err)
	}
}
