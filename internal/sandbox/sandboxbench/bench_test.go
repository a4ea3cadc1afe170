//go:build unix

package main

import (
	"testing"

	"gatehouse/internal/supervisor/suptest"
)

// BenchmarkExecTrue: `bash exec true` without the helper and under it,
// confined. Compare the two ns/op (make bench-sandbox prints the ratio).
func BenchmarkExecTrue(b *testing.B) {
	dir := b.TempDir()
	direct, supervised, _ := Registries(suptest.Binary(b), dir, false)
	defer direct.Close()
	defer supervised.Close()
	b.Run("direct", ExecTrue(direct, dir))
	b.Run("supervised-confined", ExecTrue(supervised, dir))
	suptest.Cleanup()
}
