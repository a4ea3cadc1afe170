// Package patchgen generates the benchmark inputs of apply_patch: trees of
// files and patches over them, deterministic for a given size, so Gatehouse
// and other implementations can be timed on the same bytes.
package patchgen

import (
	"fmt"
	"strings"
)

// Case is a tree (slash path -> content) and a patch to apply to it.
type Case struct {
	Name  string
	Files map[string][]byte
	Patch string
}

func line(file, i int) string {
	return fmt.Sprintf("    value_%d_%d = compute(%d, \"some text to make the line realistic\")", file, i, i*7)
}

// BigFile is one file of lines lines with chunks "@@" chunks spread evenly,
// each replacing one line and adding one, with three lines of context.
func BigFile(lines, chunks int) Case {
	var f strings.Builder
	for i := 0; i < lines; i++ {
		f.WriteString(line(0, i))
		f.WriteByte('\n')
	}
	var p strings.Builder
	p.WriteString("*** Begin Patch\n*** Update File: big.py\n")
	step := lines / chunks
	for c := 0; c < chunks; c++ {
		at := c*step + step/2
		writeChunk(&p, 0, at)
	}
	p.WriteString("*** End Patch\n")
	return Case{
		Name:  fmt.Sprintf("1 file, %d lines, %d chunks", lines, chunks),
		Files: map[string][]byte{"big.py": []byte(f.String())},
		Patch: p.String(),
	}
}

func writeChunk(p *strings.Builder, file, at int) {
	p.WriteString("@@\n")
	for i := at - 3; i < at; i++ {
		p.WriteString(" " + line(file, i) + "\n")
	}
	p.WriteString("-" + line(file, at) + "\n")
	p.WriteString(fmt.Sprintf("+    value_%d_%d = compute_v2(%d)\n", file, at, at))
	p.WriteString(fmt.Sprintf("+    log(\"changed %d\")\n", at))
	for i := at + 1; i <= at+3; i++ {
		p.WriteString(" " + line(file, i) + "\n")
	}
}

// ManyFiles is files files of 200 lines in 10 folders, each updated by a
// patch operation of two chunks.
func ManyFiles(files int) Case {
	c := Case{Name: fmt.Sprintf("%d files, 2 chunks each", files), Files: map[string][]byte{}}
	var p strings.Builder
	p.WriteString("*** Begin Patch\n")
	for n := 0; n < files; n++ {
		path := fmt.Sprintf("pkg%d/file%d.py", n%10, n)
		var f strings.Builder
		for i := 0; i < 200; i++ {
			f.WriteString(line(n, i))
			f.WriteByte('\n')
		}
		c.Files[path] = []byte(f.String())
		p.WriteString("*** Update File: " + path + "\n")
		writeChunk(&p, n, 50)
		writeChunk(&p, n, 150)
	}
	p.WriteString("*** End Patch\n")
	c.Patch = p.String()
	return c
}
