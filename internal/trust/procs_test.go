package trust

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// helperEnv makes the test binary a process that trusts folders, for
// TestProcessesTrustingAtOnceAllPersist.
const helperEnv = "GATEHOUSE_TRUST_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(trustHelper())
	}
	os.Exit(m.Run())
}

// trustHelper trusts each folder of $GATEHOUSE_TRUST_HELPER_FOLDERS
// (a count, folders named base/p<i>-<n>) in the store of $..._CONFIG.
func trustHelper() int {
	cfg, base, id := os.Getenv(helperEnv+"_CONFIG"), os.Getenv(helperEnv+"_BASE"), os.Getenv(helperEnv)
	n, _ := strconv.Atoi(os.Getenv(helperEnv + "_COUNT"))
	s := NewStore(cfg)
	for i := 0; i < n; i++ {
		ws := filepath.Join(base, fmt.Sprintf("p%s-%d", id, i))
		c, err := Read(ws, KindMCP)
		if err == nil {
			err = s.Trust(ws, KindMCP, c)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
	}
	return 0
}

// TestProcessesTrustingAtOnceAllPersist: several processes (app windows,
// `gatehouse exec`, an editor's `gatehouse acp`) trusting folders at the
// same time all keep their decisions: the read-modify-write of the store
// is serialized across processes.
func TestProcessesTrustingAtOnceAllPersist(t *testing.T) {
	const procs, each = 6, 15
	cfg, base := t.TempDir(), t.TempDir()
	for p := 0; p < procs; p++ {
		for i := 0; i < each; i++ {
			write(t, filepath.Join(base, fmt.Sprintf("p%d-%d", p, i), ".gatehouse", "mcp.json"), `{"mcpServers":{}}`)
		}
	}
	var cmds []*exec.Cmd
	for p := 0; p < procs; p++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), helperEnv+"="+strconv.Itoa(p), helperEnv+"_CONFIG="+cfg,
			helperEnv+"_BASE="+base, helperEnv+"_COUNT="+strconv.Itoa(each))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("a trusting process failed: %v", err)
		}
	}
	got, err := NewStore(cfg).Folders()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != procs*each {
		t.Fatalf("%d of %d decisions persisted", len(got), procs*each)
	}
}

// TestOneStorePerProcess: every caller of NewStore for a folder shares
// one store.
func TestOneStorePerProcess(t *testing.T) {
	cfg := t.TempDir()
	if NewStore(cfg) != NewStore(cfg+"/.") {
		t.Fatal("two stores for one file")
	}
}
