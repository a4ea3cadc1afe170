# Benchmark of big trees in the window (issue 44): on a generated workspace
# of 100,000 files beside a node_modules of as many (gitignored), opening the
# file tree against ls of the top folder, and the first @ suggestions and an
# @ query for a file 12 folders deep against find of the tree, as ratios
# measured in the same run. TREE_BENCH_FLAGS: e.g. -files 20000 -runs 3.
TREE_BENCH_FLAGS ?=

.PHONY: bench-tree
bench-tree:
	$(GO) run ./internal/mention/treebench $(TREE_BENCH_FLAGS)

BENCH_TARGETS += bench-tree
