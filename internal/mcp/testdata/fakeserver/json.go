package main

import "encoding/json"

func jsonUnmarshal(b json.RawMessage, v any) error { return json.Unmarshal(b, v) }
