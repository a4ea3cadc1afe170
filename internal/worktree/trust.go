package worktree

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"gatehouse/internal/gitcmd"
	"gatehouse/internal/settings"
	"gatehouse/internal/trust"
)

// OpenTrusting is Open with the repository's git settings trusted as the
// user's trust store says, re-read before each git run.
func OpenTrusting(ctx context.Context, dir string, ts *trust.Store) (*Repo, error) {
	r, err := Open(ctx, dir)
	if err != nil {
		return nil, err
	}
	r.Trusted = ts.GitTrust(r.Top)
	return r, nil
}

// userStore is the trust store of the user's Gatehouse config folder.
func userStore() (*trust.Store, error) {
	dir, err := settings.DefaultDir()
	if err != nil {
		return nil, err
	}
	return trust.NewStore(dir), nil
}

// explainTrust says, for a terminal, which trust a refused merge lacks and
// how to give it.
func explainTrust(err error, top string) error {
	var nt *gitcmd.NeedsTrust
	if !errors.As(err, &nt) {
		return err
	}
	return fmt.Errorf("the git settings of %s are not trusted, and merging without them would skip %s.\n"+
		"Look at them with `gatehouse worktree trust --workspace %s`, then trust them as shown with its --hash, "+
		"or use the window's Changes view (Trust git settings)", top, strings.Join(nt.Skipped, ", "), top)
}

// trustVerb is `gatehouse worktree trust [--hash H]`: without a hash it
// shows what trusting the repository's git settings covers; with the hash
// it printed, it trusts exactly that.
func trustVerb(r *Repo, ts *trust.Store, hash string, stdout io.Writer) error {
	if hash != "" {
		if err := ts.TrustShown(r.Top, trust.KindGit, hash); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "trusted the git settings of %s\n", r.Top)
		return nil
	}
	c, err := trust.Read(r.Top, trust.KindGit)
	if err != nil {
		return err
	}
	for _, rf := range c.Refused {
		fmt.Fprintln(stdout, "cannot be trusted:", rf.Reason)
	}
	if c.Empty() {
		return errors.New("this repository has no git settings to trust")
	}
	if ts.TrustsGit(r.Top) {
		fmt.Fprintf(stdout, "the git settings of %s are trusted\n", r.Top)
		return nil
	}
	fmt.Fprintf(stdout, "trusting the git settings of %s lets git run the programs these files name (hooks, filters, signing):\n", r.Top)
	for _, f := range c.Files {
		fmt.Fprintln(stdout, "  "+f)
	}
	for _, w := range c.Warnings {
		fmt.Fprintln(stdout, "warning: "+w)
	}
	if len(c.Refused) == 0 {
		fmt.Fprintf(stdout, "to trust exactly these: gatehouse worktree trust --workspace %s --hash %s\n", r.Top, c.Hash)
	}
	return nil
}
