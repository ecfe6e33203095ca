// A grpc-go client of csi-proxy-server for the server's test suite (test/grpc-go.test.ts): the
// stack every Go CSI driver uses (Debian's grpc-go 1.33, stubs generated from the package's
// proto/), dialling as upstream's client/ does. Usage: client <command> <plan.json> [args...];
// it prints one JSON object per line.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"google.golang.org/grpc/grpclog"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// plan is what the test hands over: where the endpoints are and how to dial them.
type plan struct {
	Endpoints []endpoint `json:"endpoints"`
	Authority string     `json:"authority"`
	LeakProbe bool       `json:"leakProbe"`
	// A simulated node's faults.json, for the calls that wait for a hung cmdlet.
	Faults string `json:"faults"`
}

func (p plan) endpoint(key string) endpoint {
	for _, e := range p.Endpoints {
		if e.Key == key {
			return e
		}
	}
	fail("no endpoint %s in the plan", key)
	return endpoint{}
}

func (p plan) options() dialOptions {
	return dialOptions{Authority: p.Authority, LeakProbe: p.LeakProbe}
}

var printing sync.Mutex

func emit(value interface{}) {
	printing.Lock()
	defer printing.Unlock()
	line, err := json.Marshal(value)
	if err != nil {
		fail("%v", err)
	}
	fmt.Println(string(line))
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(2)
}

// outcome is a call's result as a Go driver sees it: status.FromError's code and message.
type outcome struct {
	Code     uint32          `json:"code"`
	CodeName string          `json:"codeName"`
	Message  string          `json:"message"`
	Response json.RawMessage `json:"response,omitempty"`
}

var marshal = protojson.MarshalOptions{UseProtoNames: true, EmitUnpopulated: true}

func outcomeOf(response proto.Message, err error) outcome {
	s, _ := status.FromError(err)
	o := outcome{Code: uint32(s.Code()), CodeName: s.Code().String(), Message: s.Message()}
	if err == nil && response != nil {
		text, merr := marshal.Marshal(response)
		if merr != nil {
			fail("%v", merr)
		}
		o.Response = text
	}
	return o
}

// logs keeps what grpc-go logs (a GOAWAY it received, a transport closing), for the test to read.
type logs struct {
	mu    sync.Mutex
	lines []string
}

func (l *logs) add(args ...interface{}) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, strings.TrimSpace(fmt.Sprint(args...)))
}
func (l *logs) Info(args ...interface{})                    { l.add(args...) }
func (l *logs) Infoln(args ...interface{})                  { l.add(args...) }
func (l *logs) Infof(format string, args ...interface{})    { l.add(fmt.Sprintf(format, args...)) }
func (l *logs) Warning(args ...interface{})                 { l.add(args...) }
func (l *logs) Warningln(args ...interface{})               { l.add(args...) }
func (l *logs) Warningf(format string, args ...interface{}) { l.add(fmt.Sprintf(format, args...)) }
func (l *logs) Error(args ...interface{})                   { l.add(args...) }
func (l *logs) Errorln(args ...interface{})                 { l.add(args...) }
func (l *logs) Errorf(format string, args ...interface{})   { l.add(fmt.Sprintf(format, args...)) }
func (l *logs) Fatal(args ...interface{})                   { fail("%s", fmt.Sprint(args...)) }
func (l *logs) Fatalln(args ...interface{})                 { fail("%s", fmt.Sprint(args...)) }
func (l *logs) Fatalf(format string, args ...interface{})   { fail(format, args...) }
func (l *logs) V(int) bool                                  { return true }

func (l *logs) matching(part string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range l.lines {
		if strings.Contains(line, part) {
			out = append(out, line)
		}
	}
	return out
}

var grpcLogs = &logs{}

func main() {
	grpclog.SetLoggerV2(grpcLogs)
	if len(os.Args) < 3 {
		fail("usage: client <command> <plan.json> [args...]")
	}
	text, err := os.ReadFile(os.Args[2])
	if err != nil {
		fail("%v", err)
	}
	var p plan
	if err := json.Unmarshal(text, &p); err != nil {
		fail("%v", err)
	}
	args := os.Args[3:]
	switch os.Args[1] {
	case "endpoints":
		everyEndpoint(p)
	case "statuses":
		statuses(p)
	case "deadlines":
		deadlines(p)
	case "hung":
		hung(p, args)
	case "keepalive":
		keepaliveRun(p, args)
	case "hold":
		hold(p)
	default:
		fail("unknown command %s", os.Args[1])
	}
}
