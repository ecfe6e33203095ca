// Upstream's csi-proxy.exe takes klog's flags; an sc.exe command line written for it must start
// this server with the same meaning (issue #35 item 4).
import { describe, expect, it } from "vitest";
import { parseCommand, UsageError } from "../src/args.js";
import { defaultLogSettings, klogFlagNames, takeKlogFlags } from "../src/logging/klog-flags.js";

const policy = ["--policy", "C:\\etc\\csi-proxy\\policy.yaml"];

describe("klog's flags, read as Go's flag package reads them", () => {
  it("starts upstream's documented service command line (scripts/utils.psm1), --policy added", () => {
    const argv = [
      "-windows-service",
      "-log_file=C:\\etc\\kubernetes\\logs\\csi-proxy.log",
      "-logtostderr=false",
      "-v=4",
      "-kubelet-path",
      "C:\\var\\lib\\kubelet",
      ...policy,
    ];
    const command = parseCommand(argv, "win32");
    expect(command).toMatchObject({
      windowsService: true,
      options: { kubeletPath: "C:\\var\\lib\\kubelet" },
      log: {
        ...defaultLogSettings,
        verbosity: 4,
        toStderr: false,
        logFile: "C:\\etc\\kubernetes\\logs\\csi-proxy.log",
      },
    });
  });

  it.each([
    [["-v=2"], { verbosity: 2 }],
    [["--v", "3"], { verbosity: 3 }],
    [["-v", "-1"], { verbosity: -1 }],
    [["-log_file", "/var/log/p.log"], { logFile: "/var/log/p.log" }],
    [["--log_dir=/var/log/csi"], { logDir: "/var/log/csi" }],
    [["-log_file_max_size=10"], { maxSizeMB: 10 }],
    [["-log_file_max_size", "0x10"], { maxSizeMB: 16 }],
    [["-log_file_max_size=010"], { maxSizeMB: 8 }],
    [["-logtostderr=false", "-alsologtostderr"], { toStderr: false, alsoToStderr: true }],
    [["-logtostderr=F", "-alsologtostderr=TRUE"], { toStderr: false, alsoToStderr: true }],
    [["-logtostderr=0"], { toStderr: false }],
    [["-stderrthreshold=warning"], { stderrThreshold: 1 }],
    [["-stderrthreshold", "FATAL"], { stderrThreshold: 3 }],
    [["-stderrthreshold=0"], { stderrThreshold: 0 }],
    [["-alsologtostderrthreshold=ERROR"], { alsoToStderrThreshold: 2 }],
    [["-legacy_stderr_threshold_behavior=false"], { legacyStderrThreshold: false }],
    [["-vmodule=server*=4", "-log_backtrace_at", "main.go:10", "-skip_headers"], {}],
    [["-add_dir_header", "-skip_log_headers=true", "-one_output=false"], {}],
  ])("%j", (flags, settings) => {
    const command = parseCommand(["--socket-dir", "/s", ...policy, ...flags]);
    expect(command).toMatchObject({ log: { ...defaultLogSettings, ...settings } });
  });

  it("accepts each of upstream's fifteen klog flags, and leaves the others in order", () => {
    expect([...klogFlagNames].sort()).toEqual(
      [
        "add_dir_header",
        "alsologtostderr",
        "alsologtostderrthreshold",
        "legacy_stderr_threshold_behavior",
        "log_backtrace_at",
        "log_dir",
        "log_file",
        "log_file_max_size",
        "logtostderr",
        "one_output",
        "skip_headers",
        "skip_log_headers",
        "stderrthreshold",
        "v",
        "vmodule",
      ].sort(),
    );
    // Go takes the value after a flag that is not a bool, whatever it looks like.
    expect(takeKlogFlags(["-a", "-log_file", "-v", "b", "-skip_headers", "c"])).toEqual({
      rest: ["-a", "b", "c"],
      settings: { ...defaultLogSettings, logFile: "-v" },
    });
  });

  it.each([
    [["-v=high"], 'invalid value "high" for -v'],
    [["-v"], "flag needs an argument: -v"],
    [["-logtostderr=yes"], 'invalid boolean value "yes" for -logtostderr'],
    [["-stderrthreshold=LOUD"], 'invalid value "LOUD" for -stderrthreshold'],
    [["-log_file_max_size=-1"], 'invalid value "-1" for -log_file_max_size'],
    [["-v=99999999999"], 'invalid value "99999999999" for -v'],
  ])("refuses %j as Go would", (flags, message) => {
    const argv = ["--socket-dir", "/s", ...policy, ...flags];
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });
});
