package imagedigest

import (
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"
)

// NewTransport is the transport a digest check talks to registries with: http.DefaultTransport's
// settings, with a dialer that refuses link-local addresses, where no registry lives but a cloud's
// instance metadata service does (169.254.169.254, fd00:ec2::254), whatever name resolved to them.
func NewTransport() http.RoundTripper {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: refuseLinkLocal}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          100,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// refuseLinkLocal is a net.Dialer Control: it runs on the address a name resolved to.
func refuseLinkLocal(_, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return err
	}
	if ip := net.ParseIP(host); ip != nil && isLinkLocal(ip) {
		return fmt.Errorf("not contacting %s: a link-local address (such as a cloud's metadata service) is no registry", host)
	}
	return nil
}

// isLinkLocal covers IPv4 169.254/16 and IPv6 fe80::/10, and AWS's IPv6 metadata address.
func isLinkLocal(ip net.IP) bool {
	return ip.IsLinkLocalUnicast() || ip.IsLinkLocalMulticast() || ip.Equal(net.ParseIP("fd00:ec2::254"))
}
