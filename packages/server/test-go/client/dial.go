package main

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/keepalive"
)

// pipePath is upstream's client.PipePath: a Go raw string, so the backslashes are doubled on the
// wire (`\\.\\pipe\\csi-proxy-filesystem-v1`). grpc-go up to 1.56 sends it as :authority.
func pipePath(name string) string {
	return `\\.\\pipe\\` + name
}

// encodeAuthority percent-encodes what RFC 3986 does not allow in an authority, as grpc-go 1.57
// and later do by default for the dial target ("client: encode the authority by default", #6428).
func encodeAuthority(authority string) string {
	const allowed = "-._~!$&'()*+,;=:[]@"
	var out strings.Builder
	for i := 0; i < len(authority); i++ {
		c := authority[i]
		if ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') || strings.IndexByte(allowed, c) >= 0 {
			out.WriteByte(c)
			continue
		}
		fmt.Fprintf(&out, "%%%02X", c)
	}
	return out.String()
}

// endpoint is one served group-version as the test plan names it.
type endpoint struct {
	Key    string `json:"key"`    // "filesystem-v1" or "<set>/filesystem-v1"
	Name   string `json:"name"`   // upstream's pipe name without the prefix: "csi-proxy-filesystem-v1"
	Socket string `json:"socket"` // where the server listens here (a Unix socket, or a bridge to a pipe)
}

// dialOptions says how a connection is made.
type dialOptions struct {
	// "pipe": upstream's target, sent raw as grpc-go <= 1.56 does; "socket": the socket path as
	// target; "encoded": the pipe target with the authority percent-encoded, as grpc-go >= 1.57.
	Authority string
	// Upstream's NewClientWithPipePath first opens the pipe to check it exists and never closes
	// that handle: a connection that never sends the HTTP/2 preface.
	LeakProbe bool
	// Client keepalive (0: none), as a driver may configure it; grpc-go raises anything under 10 s.
	KeepaliveTime time.Duration
}

var leaked []net.Conn

// dial connects to e as upstream's client does: grpc.Dial with a custom dialer and no TLS.
func dial(e endpoint, o dialOptions) (*grpc.ClientConn, error) {
	if o.LeakProbe {
		conn, err := net.Dial("unix", e.Socket)
		if err != nil {
			return nil, err
		}
		leaked = append(leaked, conn)
	}
	target := pipePath(e.Name)
	options := []grpc.DialOption{
		grpc.WithInsecure(),
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", e.Socket)
		}),
	}
	switch o.Authority {
	case "socket":
		target = e.Socket
	case "encoded":
		options = append(options, grpc.WithAuthority(encodeAuthority(target)))
	}
	if o.KeepaliveTime > 0 {
		options = append(options, grpc.WithKeepaliveParams(keepalive.ClientParameters{
			Time:                o.KeepaliveTime,
			Timeout:             5 * time.Second,
			PermitWithoutStream: true,
		}))
	}
	return grpc.Dial(target, options...)
}
