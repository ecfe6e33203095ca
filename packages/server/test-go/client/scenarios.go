package main

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	diskv1 "csiproxytest/api/disk/v1"
	fsv1 "csiproxytest/api/filesystem/v1"
	iscsiv1alpha2 "csiproxytest/api/iscsi/v1alpha2"

	"google.golang.org/grpc"
	"google.golang.org/grpc/connectivity"
	"google.golang.org/grpc/metadata"
	"google.golang.org/protobuf/proto"
)

func mustDial(e endpoint, o dialOptions) *grpc.ClientConn {
	cc, err := dial(e, o)
	if err != nil {
		fail("dial %s: %v", e.Key, err)
	}
	return cc
}

func withTimeout(d time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), d)
}

// everyEndpoint makes one call on each endpoint of the plan, on a connection of its own.
func everyEndpoint(p plan) {
	for _, e := range p.Endpoints {
		groupVersion := e.Key[strings.LastIndex(e.Key, "/")+1:]
		c, ok := calls[groupVersion]
		if !ok {
			fail("no call for %s", groupVersion)
		}
		cc := mustDial(e, p.options())
		ctx, cancel := withTimeout(30 * time.Second)
		response, err := c.Invoke(ctx, cc, c.Request)
		cancel()
		cc.Close()
		request, merr := marshal.Marshal(c.Request)
		if merr != nil {
			fail("%v", merr)
		}
		emit(struct {
			Key     string          `json:"key"`
			Method  string          `json:"method"`
			Request json.RawMessage `json:"request"`
			outcome
		}{e.Key, c.Method, request, outcomeOf(response, err)})
	}
}

// statuses makes calls the server answers with each documented status code.
func statuses(p plan) {
	fs := mustDial(p.endpoint("filesystem-v1"), p.options())
	defer fs.Close()
	filesystem := fsv1.NewFilesystemClient(fs)
	check := func(name string, call func(ctx context.Context) (proto.Message, error)) {
		ctx, cancel := withTimeout(30 * time.Second)
		defer cancel()
		response, err := call(ctx)
		emit(struct {
			Name string `json:"name"`
			outcome
		}{name, outcomeOf(response, err)})
	}
	check("ok", func(ctx context.Context) (proto.Message, error) {
		return filesystem.PathExists(ctx, &fsv1.PathExistsRequest{Path: kubelet})
	})
	check("not-absolute", func(ctx context.Context) (proto.Message, error) {
		return filesystem.PathExists(ctx, &fsv1.PathExistsRequest{Path: `var\lib\kubelet`})
	})
	check("rmdir-missing", func(ctx context.Context) (proto.Message, error) {
		return filesystem.Rmdir(ctx, &fsv1.RmdirRequest{Path: kubelet + `\plugins\no-such-folder`})
	})
	check("too-large", func(ctx context.Context) (proto.Message, error) {
		return filesystem.PathExists(ctx, &fsv1.PathExistsRequest{Path: kubelet + `\` + strings.Repeat("a", 300_000)})
	})
	check("token-refused", func(ctx context.Context) (proto.Message, error) {
		ctx = metadata.AppendToOutgoingContext(ctx, "authorization", "Bearer not-a-token")
		return filesystem.PathExists(ctx, &fsv1.PathExistsRequest{Path: kubelet})
	})
	iscsi := mustDial(p.endpoint("iscsi-v1alpha2"), p.options())
	defer iscsi.Close()
	check("no-portal", func(ctx context.Context) (proto.Message, error) {
		return iscsiv1alpha2.NewIscsiClient(iscsi).ConnectTarget(ctx, &iscsiv1alpha2.ConnectTargetRequest{Iqn: "iqn.x"})
	})
	// A method v1alpha1 never had, called on its endpoint with v1's messages.
	old := mustDial(p.endpoint("disk-v1alpha1"), p.options())
	defer old.Close()
	check("unimplemented", func(ctx context.Context) (proto.Message, error) {
		response := &diskv1.GetDiskStateResponse{}
		err := old.Invoke(ctx, "/v1alpha1.Disk/GetDiskState", &diskv1.GetDiskStateRequest{DiskNumber: 1}, response)
		return response, err
	})
	// An endpoint set the policy grants nothing.
	denied := mustDial(p.endpoint("denied/filesystem-v1"), p.options())
	defer denied.Close()
	check("denied", func(ctx context.Context) (proto.Message, error) {
		return fsv1.NewFilesystemClient(denied).PathExists(ctx, &fsv1.PathExistsRequest{Path: kubelet})
	})
}

// deadlines calls with deadlines from 1 ms to 1 s: each must be served unless it truly passed.
func deadlines(p plan) {
	cc := mustDial(p.endpoint("filesystem-v1"), p.options())
	defer cc.Close()
	client := fsv1.NewFilesystemClient(cc)
	// The connection is made first, so the deadlines measure the calls alone.
	ctx, cancel := withTimeout(30 * time.Second)
	if _, err := client.PathExists(ctx, &fsv1.PathExistsRequest{Path: kubelet}); err != nil {
		fail("first call: %v", err)
	}
	cancel()
	for _, ms := range []int{1, 50, 100, 200, 250, 300, 1000} {
		for i := 0; i < 5; i++ {
			ctx, cancel := withTimeout(time.Duration(ms) * time.Millisecond)
			response, err := client.PathExists(ctx, &fsv1.PathExistsRequest{Path: kubelet})
			cancel()
			emit(struct {
				DeadlineMs int `json:"deadlineMs"`
				outcome
			}{ms, outcomeOf(response, err)})
		}
	}
}

// faultMet reports whether the simulated node's first fault has been met (times down to 0).
func faultMet(file string) bool {
	text, err := os.ReadFile(file)
	if err != nil {
		return false
	}
	var faults []struct {
		Times int `json:"times"`
	}
	return json.Unmarshal(text, &faults) == nil && len(faults) > 0 && faults[0].Times == 0
}

// hung calls GetDiskState while the test holds Get-Disk on the node, then calls again: with
// "timeout:<ms>" the deadline ends the first, with "cancel" the client cancels it once held.
func hung(p plan, args []string) {
	cc := mustDial(p.endpoint("disk-v1"), p.options())
	defer cc.Close()
	client := diskv1.NewDiskClient(cc)
	ctx, cancel := context.WithCancel(context.Background())
	if len(args) > 0 && strings.HasPrefix(args[0], "timeout:") {
		ms, err := strconv.Atoi(strings.TrimPrefix(args[0], "timeout:"))
		if err != nil {
			fail("%v", err)
		}
		cancel()
		ctx, cancel = withTimeout(time.Duration(ms) * time.Millisecond)
	} else {
		go func() {
			for !faultMet(p.Faults) {
				time.Sleep(20 * time.Millisecond)
			}
			cancel()
		}()
	}
	started := time.Now()
	response, err := client.GetDiskState(ctx, &diskv1.GetDiskStateRequest{DiskNumber: 1})
	cancel()
	emit(struct {
		Call      string `json:"call"`
		ElapsedMs int64  `json:"elapsedMs"`
		outcome
	}{"held", time.Since(started).Milliseconds(), outcomeOf(response, err)})
	ctx, cancel = withTimeout(60 * time.Second)
	defer cancel()
	response, err = client.GetDiskState(ctx, &diskv1.GetDiskStateRequest{DiskNumber: 1})
	emit(struct {
		Call string `json:"call"`
		outcome
	}{"next", outcomeOf(response, err)})
}

// watchStates records every state the connection goes through.
func watchStates(cc *grpc.ClientConn) func() []string {
	var states []string
	done := make(chan struct{})
	go func() {
		for {
			state := cc.GetState()
			printing.Lock()
			states = append(states, state.String())
			printing.Unlock()
			if state == connectivity.Shutdown || !cc.WaitForStateChange(context.Background(), state) {
				close(done)
				return
			}
		}
	}()
	return func() []string {
		printing.Lock()
		defer printing.Unlock()
		return append([]string(nil), states...)
	}
}

// keepaliveRun: a burst of calls on one connection (grpc-go pings after each response to
// estimate the bandwidth), then the connection left idle with a 10 s keepalive (grpc-go's least)
// for args[0] seconds, then one more call on it.
func keepaliveRun(p plan, args []string) {
	seconds, err := strconv.Atoi(args[0])
	if err != nil {
		fail("%v", err)
	}
	o := p.options()
	o.KeepaliveTime = 10 * time.Second
	cc := mustDial(p.endpoint("filesystem-v1"), o)
	defer cc.Close()
	states := watchStates(cc)
	client := fsv1.NewFilesystemClient(cc)
	failures := 0
	call := func() {
		ctx, cancel := withTimeout(30 * time.Second)
		defer cancel()
		if _, err := client.PathExists(ctx, &fsv1.PathExistsRequest{Path: kubelet}); err != nil {
			failures++
		}
	}
	const burst = 300
	for i := 0; i < burst; i++ {
		call()
	}
	time.Sleep(time.Duration(seconds) * time.Second)
	call()
	emit(struct {
		Calls    int      `json:"calls"`
		Failures int      `json:"failures"`
		States   []string `json:"states"`
		GoAways  []string `json:"goAways"`
	}{burst + 1, failures, states(), append([]string{}, grpcLogs.matching("GoAway")...)})
}

// hold keeps a connection (and upstream's never-closed probe) while calling every 100 ms,
// printing each change of outcome, until stdin closes.
func hold(p plan) {
	o := p.options()
	o.LeakProbe = true
	cc := mustDial(p.endpoint("filesystem-v1"), o)
	defer cc.Close()
	client := fsv1.NewFilesystemClient(cc)
	stop := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		close(stop)
	}()
	last := ""
	for {
		ctx, cancel := withTimeout(time.Second)
		response, err := client.PathExists(ctx, &fsv1.PathExistsRequest{Path: kubelet})
		cancel()
		o := outcomeOf(response, err)
		if o.CodeName != last {
			last = o.CodeName
			emit(o)
		}
		select {
		case <-stop:
			return
		case <-time.After(100 * time.Millisecond):
		}
	}
}
