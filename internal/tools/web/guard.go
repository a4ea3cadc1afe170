package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"time"
)

// Resolver looks a host name up; *net.Resolver fits.
type Resolver interface {
	LookupNetIP(ctx context.Context, network, host string) ([]netip.Addr, error)
}

// BlockedError is a connection refused because the address it would reach
// is not on the public internet (loopback, private, link-local, CGNAT,
// multicast, unspecified, reserved, cloud metadata).
type BlockedError struct {
	Host string
	Addr netip.Addr
	Why  string
}

func (e *BlockedError) Error() string {
	if e.Host != "" && e.Host != e.Addr.String() {
		return fmt.Sprintf("%s resolves to %s, a %s address: web_fetch reaches only public addresses", e.Host, e.Addr, e.Why)
	}
	return fmt.Sprintf("%s is a %s address: web_fetch reaches only public addresses", e.Addr, e.Why)
}

var (
	cgnat       = netip.MustParsePrefix("100.64.0.0/10")
	thisNet     = netip.MustParsePrefix("0.0.0.0/8")
	ietf        = netip.MustParsePrefix("192.0.0.0/24")
	benchmark   = netip.MustParsePrefix("198.18.0.0/15")
	reserved    = netip.MustParsePrefix("240.0.0.0/4")
	nat64       = netip.MustParsePrefix("64:ff9b::/96")
	nat64Local  = netip.MustParsePrefix("64:ff9b:1::/48")
	sixToFour   = netip.MustParsePrefix("2002::/16")
	metadataV4  = netip.MustParseAddr("169.254.169.254")
	metadataV6  = netip.MustParseAddr("fd00:ec2::254")
	documentV6  = netip.MustParsePrefix("2001:db8::/32")
	discardV6   = netip.MustParsePrefix("100::/64")
	uniqueLocal = netip.MustParsePrefix("fc00::/7")
)

// forbidden says why a is not a public address, or "" when it is.
func forbidden(a netip.Addr) string {
	if a.Zone() != "" {
		return "scoped"
	}
	if a == metadataV4 || a == metadataV6 {
		return "cloud metadata"
	}
	if a.Is4In6() {
		if why := forbidden(a.Unmap()); why != "" {
			return "IPv4-mapped " + why
		}
		return ""
	}
	if a.Is6() && (nat64.Contains(a) || sixToFour.Contains(a)) {
		// An IPv4 address embedded in NAT64 or 6to4 reaches that address.
		b := a.As16()
		v4 := netip.AddrFrom4([4]byte{b[12], b[13], b[14], b[15]})
		if sixToFour.Contains(a) {
			v4 = netip.AddrFrom4([4]byte{b[2], b[3], b[4], b[5]})
		}
		if why := forbidden(v4); why != "" {
			return "IPv4-embedding " + why
		}
	}
	switch {
	case !a.IsValid():
		return "invalid"
	case a.IsUnspecified() || thisNet.Contains(a):
		return "unspecified"
	case a.IsLoopback():
		return "loopback"
	case a.IsPrivate() || uniqueLocal.Contains(a):
		return "private"
	case a.IsLinkLocalUnicast():
		return "link-local"
	case a.IsMulticast() || a.IsLinkLocalMulticast() || a.IsInterfaceLocalMulticast():
		return "multicast"
	case cgnat.Contains(a):
		return "carrier-grade NAT (100.64.0.0/10)"
	case ietf.Contains(a) || benchmark.Contains(a) || reserved.Contains(a) || nat64Local.Contains(a) ||
		documentV6.Contains(a) || discardV6.Contains(a):
		return "reserved"
	}
	return ""
}

// dialer resolves, checks every address, and dials the checked address
// itself, so a name cannot resolve to a public address for the check and a
// private one for the connection (DNS rebinding).
type dialer struct {
	resolver Resolver
	// allow (tests only; nil in every real session) lets one exact
	// address and port through the check: the test's own server.
	allow   func(netip.AddrPort) bool
	timeout time.Duration
	// dial (tests only; nil: a net.Dialer) connects to a checked address.
	dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

func (d *dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	port, err := strconv.ParseUint(portText, 10, 16)
	if err != nil {
		return nil, fmt.Errorf("bad port %q", portText)
	}
	ips, err := d.resolve(ctx, host)
	if err != nil {
		return nil, err
	}
	var targets []netip.AddrPort
	for _, ip := range ips {
		ap := netip.AddrPortFrom(ip.Unmap(), uint16(port))
		if why := forbidden(ip); why != "" && (d.allow == nil || !d.allow(ap)) {
			// One forbidden answer refuses the name: a name that mixes
			// public and private answers is not one to trust.
			return nil, &BlockedError{Host: host, Addr: ip, Why: why}
		}
		targets = append(targets, ap)
	}
	dial := d.dial
	if dial == nil {
		nd := &net.Dialer{Timeout: d.timeout}
		dial = nd.DialContext
	}
	var errs []error
	for _, ap := range targets {
		c, err := dial(ctx, network, ap.String())
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// resolve returns the addresses of host: itself when it is an address.
func (d *dialer) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, err := netip.ParseAddr(host); err == nil {
		return []netip.Addr{ip}, nil
	}
	ips, err := d.resolver.LookupNetIP(ctx, "ip", host)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve %s: %w", host, err)
	}
	if len(ips) == 0 {
		return nil, fmt.Errorf("%s has no address", host)
	}
	return ips, nil
}
