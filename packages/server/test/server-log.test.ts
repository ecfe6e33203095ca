// The server's own log (issue #35 item 4): JSON lines through pino, routed as upstream's klog
// flags say, and the bin started with an upstream-style command line (-v, -log_file,
// -logtostderr=false), which it refused before ("Unknown option '-v'").
import { mkdtempSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { describe, expect, it } from "vitest";
import { defaultLogSettings, type LogSettings } from "../src/logging/klog-flags.js";
import { createServerLog, logFileName } from "../src/logging/logger.js";
import { startBin } from "./harness.js";

type Line = Record<string, unknown>;
const parse = (text: string): Line[] =>
  text
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Line);

function logWith(settings: Partial<LogSettings>) {
  const stderr: string[] = [];
  const dir = mkdtempSync(join(tmpdir(), "csi-server-log-"));
  const log = createServerLog({ ...defaultLogSettings, logDir: dir, ...settings }, (line) =>
    stderr.push(line),
  );
  for (const level of ["trace", "debug", "info", "warn", "error"] as const)
    log.logger[level]({ n: 1 }, level);
  log.close();
  const levels = (text: string) => parse(text).map((line) => line.level);
  const file = log.file === undefined ? undefined : levels(readFileSync(log.file, "utf8"));
  return { stderr: levels(stderr.join("\n")), file, path: log.file, dir };
}

describe("the server's log as klog's flags route it", () => {
  it("by default: stderr only, info and up; -v=2 adds debug (a line per call), -v=4 trace", () => {
    expect(logWith({})).toMatchObject({ stderr: ["info", "warn", "error"], file: undefined });
    expect(logWith({ verbosity: 2 }).stderr).toEqual(["debug", "info", "warn", "error"]);
    expect(logWith({ verbosity: 4 }).stderr).toEqual(["trace", "debug", "info", "warn", "error"]);
  });

  it("-logtostderr=false: everything to the file, ERROR and up to stderr too (-stderrthreshold)", () => {
    const logged = logWith({ toStderr: false });
    expect(logged.file).toEqual(["info", "warn", "error"]);
    expect(logged.stderr).toEqual(["error"]);
    // Without -log_file, in -log_dir (klog's default: the temporary folder).
    expect(logged.path).toBe(join(logged.dir, logFileName));
    expect(logWith({ toStderr: false, stderrThreshold: 1 }).stderr).toEqual(["warn", "error"]);
  });

  it("-alsologtostderr: stderr as well, from -alsologtostderrthreshold", () => {
    expect(logWith({ toStderr: false, alsoToStderr: true }).stderr).toEqual([
      "info",
      "warn",
      "error",
    ]);
    const high = logWith({ toStderr: false, alsoToStderr: true, alsoToStderrThreshold: 2 });
    expect(high).toMatchObject({ stderr: ["error"], file: ["info", "warn", "error"] });
  });

  it("-legacy_stderr_threshold_behavior=false: -stderrthreshold filters stderr even with -logtostderr", () => {
    expect(logWith({ legacyStderrThreshold: false, stderrThreshold: 1 }).stderr).toEqual([
      "warn",
      "error",
    ]);
    expect(logWith({ legacyStderrThreshold: false, stderrThreshold: 4 }).stderr).toEqual([]);
  });

  it.skipIf(process.platform !== "linux")(
    "a line the file cannot take goes to stderr: the log never stops a call",
    () => {
      const stderr: string[] = [];
      const log = createServerLog(
        { ...defaultLogSettings, toStderr: false, logFile: "/dev/full" },
        (line) => stderr.push(line),
      );
      log.logger.info({}, "kept");
      log.close();
      expect(parse(stderr.join("\n")).map((line) => line.msg)).toEqual(["kept"]);
    },
  );
});

describeWithPwsh("the bin with an upstream-style command line", (pwsh) => {
  it("starts with -v=2 -log_file=… -logtostderr=false, logs each call to the file and reopens it on SIGHUP", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csi-klog-"));
    const logFile = join(dir, "etc", "kubernetes", "logs", "csi-proxy.log");
    const policy = join(dir, "policy.json");
    const rule = { name: "r", callers: [{ local: true }], methods: ["system.GetBIOSSerialNumber"] };
    writeFileSync(policy, JSON.stringify({ version: 1, rules: [rule] }));
    const bin = await startBin(pwsh, [
      "-simulate",
      `-log_file=${logFile}`,
      "-logtostderr=false",
      "-v=2",
      "-policy",
      policy,
      "-audit-log",
      join(dir, "audit.jsonl"),
    ]);
    try {
      const system = bin.client("system-v1alpha1");
      expect((await system.call("GetBIOSSerialNumber", {})).code).toBe(0);
      expect((await system.call("GetService", { name: "x" })).code).toBe(7);
      const lines = () => parse(readFileSync(logFile, "utf8"));
      expect(lines().map((line) => [line.level, line.msg, line.method])).toEqual([
        ["info", "serving", undefined],
        ["debug", "call", "system.GetBIOSSerialNumber"],
        ["warn", "call failed", "system.GetService"],
      ]);
      renameSync(logFile, `${logFile}.1`);
      bin.child.kill("SIGHUP");
      await expect.poll(() => lines().map((line) => line.msg)).toEqual(["log files reopened"]);
      // Nothing reached stderr: klog's -stderrthreshold is ERROR.
      expect(parse(bin.stderr())).toEqual([]);
    } finally {
      expect(await bin.stop()).toBe(0);
    }
  });
});
