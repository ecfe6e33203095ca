// The audit log as an operator runs it (issue #35 item 5, issue #33 item 7): its folder made on
// a fresh node, each call's outcome and duration, logrotate's rename and SIGHUP, rotation by size
// with a fixed number of files kept, what one request can write; and the server's default log
// (item 4): a failed call is one line on stderr, a successful one none.
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBin, type RunningBin } from "./harness.js";

const OK = 0;
const NOT_FOUND = 5;
const PERMISSION_DENIED = 7;
const granted = "C:\\var\\lib\\kubelet\\plugins\\ops";

type Line = Record<string, unknown>;

const parse = (text: string): Line[] =>
  text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Line);

describeWithPwsh("the audit log on a node", (pwsh) => {
  let bin: RunningBin;
  let auditLog: string;

  const lines = (file = auditLog): Line[] => parse(readFileSync(file, "utf8"));
  const filesystem = () => bin.client("filesystem-v1");
  // Each call's lines, by the call id they share.
  const lastCall = (): Line[] => {
    const all = lines();
    const id = all.at(-1)?.call;
    return all.filter((line) => line.call === id);
  };

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "csi-audit-"));
    // A fresh node: nothing of the audit log's folder exists yet.
    auditLog = join(dir, "var", "log", "csi-proxy-server", "audit.jsonl");
    const policy = join(dir, "policy.json");
    const rule = { name: "ops", callers: [{ local: true }], methods: ["filesystem.*"] };
    writeFileSync(policy, JSON.stringify({ version: 1, rules: [{ ...rule, paths: [granted] }] }));
    bin = await startBin(pwsh, [
      "--simulate",
      "--policy",
      policy,
      "--audit-log",
      auditLog,
      "--audit-log-maxsize",
      "1",
      "--audit-log-maxbackup",
      "2",
    ]);
  });

  afterAll(async () => {
    expect(await bin.stop()).toBe(0);
  });

  it("makes the log's folder owner-only and the file 0600 where none existed", () => {
    expect(statSync(auditLog).mode & 0o777).toBe(0o600);
    expect(statSync(join(auditLog, "..")).mode & 0o777).toBe(0o700);
    expect(statSync(join(auditLog, "..", "..")).mode & 0o777).toBe(0o700);
  });

  it("ends an allowed call with a line of its status and duration, under the call's id", async () => {
    expect((await filesystem().call("Mkdir", { path: `${granted}\\a` })).code).toBe(OK);
    const [allow, outcome, ...more] = lastCall();
    expect(more).toEqual([]);
    expect(allow).toMatchObject({ decision: "allow", method: "filesystem.Mkdir", caller: "local" });
    expect(allow).not.toHaveProperty("status");
    expect(outcome).toMatchObject({
      call: allow?.call,
      method: "filesystem.Mkdir",
      endpoint: "filesystem-v1",
      endpointSet: "default",
      status: "OK",
    });
    expect(typeof outcome?.durationMs).toBe("number");
    expect(outcome).not.toHaveProperty("error");

    const missing = await filesystem().call("Rmdir", { path: `${granted}\\nothing` });
    expect(missing.code).toBe(NOT_FOUND);
    expect(lastCall()[1]).toMatchObject({ status: "NOT_FOUND", error: missing.details });
  });

  it("ends a refused call with its one deny line, which carries the status", async () => {
    const reply = await filesystem().call("Mkdir", { path: "C:\\var\\lib\\kubelet\\other" });
    expect(reply.code).toBe(PERMISSION_DENIED);
    const [deny, ...more] = lastCall();
    expect(more).toEqual([]);
    expect(deny).toMatchObject({ decision: "deny", status: "PERMISSION_DENIED" });
    expect(typeof deny?.durationMs).toBe("number");
  });

  it("logs a failed call as one JSON line on stderr (method, set, caller, status, duration, error), a successful one not", async () => {
    expect((await filesystem().call("PathExists", { path: `${granted}\\a` })).code).toBe(OK);
    const succeeded = lastCall()[0]?.call;
    const reply = await filesystem().call("Mkdir", { path: "C:\\var\\lib\\kubelet\\other2" });
    const failed = lastCall()[0]?.call;
    const logged = () => parse(bin.stderr()).filter((line) => line.msg !== "serving");
    // stderr reaches the test through a pipe: wait for the line rather than guess.
    await expect.poll(() => logged().some((line) => line.call === failed)).toBe(true);
    expect(logged().filter((line) => line.call === succeeded)).toEqual([]);
    expect(logged().filter((line) => line.call === failed)).toEqual([
      {
        level: "warn",
        time: expect.any(String),
        pid: bin.child.pid,
        msg: "call failed",
        call: failed,
        method: "filesystem.Mkdir",
        endpoint: "filesystem-v1",
        endpointSet: "default",
        caller: "local",
        peer: expect.stringMatching(/^uid=\d+,gid=\d+,pid=\d+$/),
        status: "PERMISSION_DENIED",
        code: PERMISSION_DENIED,
        durationMs: expect.any(Number),
        error: reply.details,
      },
    ]);
  });

  it("survives SIGHUP (logrotate's postrotate) and writes to the file it names afterwards", async () => {
    renameSync(auditLog, `${auditLog}.rotated`);
    bin.child.kill("SIGHUP");
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(bin.child.exitCode).toBeNull();
    expect((await filesystem().call("PathExists", { path: `${granted}\\a` })).code).toBe(OK);
    expect(lines().map((line) => line.method)).toEqual([
      "filesystem.PathExists",
      "filesystem.PathExists",
    ]);
    expect(statSync(auditLog).mode & 0o777).toBe(0o600);
    expect(parse(bin.stderr()).some((line) => line.msg === "log files reopened")).toBe(true);
  });

  it("never writes to a renamed file, even without SIGHUP", async () => {
    const renamed = `${auditLog}.renamed`;
    renameSync(auditLog, renamed);
    const before = readFileSync(renamed, "utf8");
    expect((await filesystem().call("PathExists", { path: `${granted}\\a` })).code).toBe(OK);
    expect(readFileSync(renamed, "utf8")).toBe(before);
    expect(lines()).toHaveLength(2);
  });

  it("writes a bounded amount for one 250 KB request, its long values cut with a hash (issue #33 item 7)", async () => {
    const long = (c: string) => `${granted}\\${c.repeat(120_000)}`;
    const requests: [string, Record<string, unknown>][] = [
      ["CreateSymlink", { source_path: long("s"), target_path: long("t") }],
      ["Mkdir", { path: long("m").repeat(2) }],
      ["Rmdir", { path: `C:\\elsewhere\\${"\\".repeat(240_000)}` }],
    ];
    for (const [method, request] of requests) {
      const size = statSync(auditLog).size;
      const reply = await filesystem().call(method, request);
      expect(reply.code).not.toBe(OK);
      const written = statSync(auditLog).size - size;
      expect(written, method).toBeLessThan(12_000);
    }
    const cut = JSON.stringify(lines().slice(-6));
    expect(cut).toMatch(/…\[\d+ characters cut, sha256 [0-9a-f]{64}\]…/);
  });

  it("rotates at --audit-log-maxsize, keeping --audit-log-maxbackup files of whole lines", async () => {
    // About 1.4 KB a denied call: 2,600 of them write about 3.7 MB.
    const path = `C:\\denied\\${"x".repeat(1000)}`;
    for (let batch = 0; batch < 130; batch += 1)
      await Promise.all(
        Array.from({ length: 20 }, () => filesystem().call("PathExists", { path })),
      );
    for (const file of [auditLog, `${auditLog}.1`, `${auditLog}.2`]) {
      expect(statSync(file).size).toBeLessThanOrEqual(1024 * 1024);
      expect(lines(file).length).toBeGreaterThan(0); // each line whole JSON
    }
    expect(lines(`${auditLog}.1`).every((line) => line.method === "filesystem.PathExists")).toBe(
      true,
    );
    expect(statSync(`${auditLog}.1`).size).toBeGreaterThan(1000 * 1000);
    expect(existsSync(`${auditLog}.3`)).toBe(false);
  });
});
