package netproxy

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"time"
)

// Dialer resolves a name and dials one of its addresses that is not this
// machine's, a link-local (cloud metadata) or a multicast one; the
// address dialed is the one checked.
type Dialer struct {
	Timeout time.Duration
}

// DialContext implements Options.Dial.
func (d *Dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ips, err := net.DefaultResolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, err
	}
	nd := &net.Dialer{Timeout: d.Timeout}
	var errs []error
	for _, ip := range ips {
		ip = ip.Unmap()
		if why := local(ip); why != "" {
			return nil, fmt.Errorf("%s resolves to %s, %s: the proxy does not reach it", host, ip, why)
		}
	}
	for _, ip := range ips {
		c, err := nd.DialContext(ctx, network, net.JoinHostPort(ip.Unmap().String(), port))
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// local says why a is not reached through the proxy, "" when it is.
func local(a netip.Addr) string {
	switch {
	case a.IsLoopback() || a.IsUnspecified():
		return "an address of this machine"
	case a.IsLinkLocalUnicast():
		return "a link-local address (cloud metadata lives there)"
	case a.IsMulticast():
		return "a multicast address"
	}
	return ""
}
