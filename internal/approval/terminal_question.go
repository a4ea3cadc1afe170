package approval

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"gatehouse/internal/termsafe"
)

// Question asks the user question on the terminal and returns the answer:
// with choices, one of them (by number or as written); without, the line
// typed. It shares the terminal with approval requests, one at a time.
// The question and choices come from the model and are escaped.
func (t *Terminal) Question(ctx context.Context, question string, choices []string) (string, error) {
	t.once.Do(func() {
		t.lines = make(chan string)
		go t.readLines()
	})
	t.mu.Lock()
	defer t.mu.Unlock()
	fmt.Fprintf(t.out, "\n── the agent asks: %s\n", termsafe.Text(question))
	for i, c := range choices {
		fmt.Fprintf(t.out, "  [%d] %s\n", i+1, termsafe.Line(c))
	}
	for {
		p := "your answer: "
		if len(choices) > 0 {
			p = fmt.Sprintf("your choice (1-%d): ", len(choices))
		}
		line, err := t.prompt(ctx, p)
		if err != nil {
			return "", err
		}
		line = strings.TrimSpace(line)
		if len(choices) == 0 {
			if line != "" {
				return line, nil
			}
			continue
		}
		if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(choices) {
			return choices[n-1], nil
		}
		for _, c := range choices {
			if strings.EqualFold(c, line) {
				return c, nil
			}
		}
		fmt.Fprintf(t.out, "please answer with a number from 1 to %d\n", len(choices))
	}
}
