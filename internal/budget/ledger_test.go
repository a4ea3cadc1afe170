package budget

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestLedgerSumsEveryWriterOfTheDay(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			l := OpenLedger(dir) // each writer its own, as processes are
			for range 50 {
				if err := l.Add(Entry{Session: fmt.Sprint("s", w), Tokens: 10, Cost: 0.25}); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	tok, cost, err := OpenLedger(dir).Today()
	if err != nil || tok != 2000 || cost != 50 {
		t.Fatalf("Today = %d, %v, %v; want 2000 tokens, $50", tok, cost, err)
	}
}

func TestLedgerReadsOnlyWhatIsNewAndStartsANewDay(t *testing.T) {
	dir := t.TempDir()
	day := time.Date(2026, 12, 2, 23, 59, 0, 0, time.Local)
	l := &Ledger{dir: dir, now: func() time.Time { return day }}
	l.Add(Entry{Tokens: 5})
	if tok, _, _ := l.Today(); tok != 5 {
		t.Fatalf("tokens = %d, want 5", tok)
	}
	l.Add(Entry{Tokens: 7})
	if tok, _, _ := l.Today(); tok != 12 {
		t.Fatalf("tokens = %d, want 12", tok)
	}
	day = day.Add(2 * time.Minute)
	if tok, _, _ := l.Today(); tok != 0 {
		t.Fatalf("a new day starts at %d tokens, want 0", tok)
	}
}

func TestLedgerSkipsATornLineAndKeepsTheNext(t *testing.T) {
	dir := t.TempDir()
	l := OpenLedger(dir)
	l.Add(Entry{Tokens: 3})
	f, err := os.OpenFile(l.path(l.today()), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"s":"x","t":99`) // a crash mid-line
	f.Close()
	if tok, _, _ := OpenLedger(dir).Today(); tok != 3 {
		t.Fatalf("tokens with a torn last line = %d, want 3", tok)
	}
	l.Add(Entry{Tokens: 4})
	if tok, _, _ := OpenLedger(dir).Today(); tok != 7 {
		t.Fatalf("tokens after the torn line = %d, want 7", tok)
	}
}

// TestLedgerKeepsWhatAKilledProcessRecorded: a process appends entries and
// says so after each Add returns; SIGKILLed mid-run, every entry it said it
// recorded is in the ledger.
func TestLedgerKeepsWhatAKilledProcessRecorded(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLedgerWriterProcess$")
	cmd.Env = append(os.Environ(), "BUDGET_LEDGER_WRITER="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(out)
	recorded := 0
	for sc.Scan() {
		if n, err := strconv.Atoi(sc.Text()); err == nil {
			recorded = n
		}
		if recorded >= 40 {
			break
		}
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if recorded < 40 {
		t.Fatalf("the writer said it recorded %d entries before it was killed", recorded)
	}
	tok, _, err := OpenLedger(dir).Today()
	if err != nil || tok < int64(recorded)*100 {
		t.Fatalf("ledger holds %d tokens after SIGKILL; the writer had recorded %d", tok, recorded*100)
	}
}

// TestLedgerWriterProcess is the process TestLedgerKeepsWhatAKilledProcessRecorded kills.
func TestLedgerWriterProcess(t *testing.T) {
	dir := os.Getenv("BUDGET_LEDGER_WRITER")
	if dir == "" {
		t.Skip("run by TestLedgerKeepsWhatAKilledProcessRecorded")
	}
	l := OpenLedger(dir)
	for i := 1; ; i++ {
		if err := l.Add(Entry{Session: "killed", Tokens: 100}); err != nil {
			t.Fatal(err)
		}
		fmt.Println(i)
	}
}
