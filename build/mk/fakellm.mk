# The scripted fake model server for end-to-end tests (never shipped).
# Scripts the e2e tests can use live in internal/llm/llmtest/testdata.

.PHONY: fakellm
fakellm:
	$(GO) build -o build/out/fakellm ./internal/llm/llmtest/cmd/fakellm
