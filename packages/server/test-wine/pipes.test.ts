// The built server in Windows Node under Wine, driven by client/driver.mjs (grpc-js, raw bytes,
// raw HTTP/2 and koffi calls in a second Windows Node): Wine's kernel32/advapi32 are the Win32
// implementation here, not a fake of ours. What Wine does not model (access checks, remote
// clients) is not claimed: packages/server/docs/named-pipes.md says which evidence is whose.
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  alive,
  driveC,
  driver,
  policyFile,
  removeScratch,
  scratch,
  startDriver,
  startServer,
  until,
  upstreamPipeNames,
  winPath,
  type WineServer,
  wineSetup,
} from "./wine.js";

const setup = wineSetup();
afterAll(removeScratch);
const names = upstreamPipeNames();
const kubelet = "C:\\csi-wine\\kubelet";
const PERMISSION_DENIED = 7;
const CANCELLED = 1;
const target = (group: string, version: string, service: string) => ({
  pipe: `\\\\.\\pipe\\csi-proxy-${group}-${version}`,
  protoFile: winPath(join(setup.app, "proto", group, version, "api.proto")),
  service: `${version}.${service}`,
});
const filesystem = target("filesystem", "v1", "Filesystem");

/** The SDDL with each ACE's rights in one order (Wine writes GRGW as GWGR). */
function canonical(sddl: string): string {
  return sddl.replace(
    /\(([^;()]*);([^;()]*);([^;()]*);/g,
    (_all, type: string, flags: string, rights: string) => {
      const sorted = rights.startsWith("0x") ? rights : (rights.match(/../g) ?? []).sort().join("");
      return `(${type};${flags};${sorted};`;
    },
  );
}

function serve(extra: string[] = []): Promise<WineServer> {
  mkdirSync(driveC(setup, kubelet), { recursive: true });
  const policy = policyFile(kubelet, ["filesystem.PathExists", "filesystem.Mkdir"]);
  return startServer(setup, ["--policy", policy, "--kubelet-path", kubelet, ...extra]);
}

type Call = { code: number; details?: string; response?: unknown };

describe("csi-proxy-server's pipes in Windows Node under Wine", () => {
  let server: WineServer;
  const pathExists = { method: "PathExists", request: { path: kubelet } };
  const stillServes = async () => {
    const [answer] = await driver<Call[]>(setup, "calls", {
      target: filesystem,
      calls: [pathExists],
    });
    expect(answer).toMatchObject({ code: 0, response: { exists: true } });
    expect(alive(server.process.child.pid)).toBe(true);
    // No pipe call failed inside the server (listen.ts warns before it retries one).
    expect(server.process.stderr()).not.toMatch(/named pipe .*retrying|Win32 error/);
  };

  beforeAll(async () => {
    server = await serve();
  });

  afterAll(async () => {
    if (alive(server.process.child.pid)) await server.stop();
  });

  it("serves every upstream pipe, named \\\\.\\pipe\\csi-proxy-<group>-<version>", async () => {
    expect(names).toHaveLength(23);
    expect(Object.values(server.ready.endpoints).sort()).toEqual([...names].sort());
    const found = await driver<Record<string, string>>(setup, "probe", { names });
    for (const name of names) expect(found[name], name).toBe("present");
  });

  it("filesystem round trips over the pipe: PathExists, Mkdir, PathExists", async () => {
    const made = `${kubelet}\\pods\\wine-${Date.now()}`;
    const answers = await driver<Call[]>(setup, "calls", {
      target: filesystem,
      calls: [
        { method: "PathExists", request: { path: made } },
        { method: "Mkdir", request: { path: made } },
        { method: "PathExists", request: { path: made } },
      ],
    });
    expect(answers.map((answer) => answer.code)).toEqual([0, 0, 0]);
    expect(answers[0]?.response).toEqual({ exists: false });
    expect(answers[2]?.response).toEqual({ exists: true });
    // Seen from Linux: Wine's C: is the prefix's drive_c, so the folder is really there.
    expect(existsSync(driveC(setup, made))).toBe(true);
  });

  it("a method the policy does not grant is denied and runs nothing", async () => {
    const victim = `${kubelet}\\keep-${Date.now()}`;
    mkdirSync(driveC(setup, victim), { recursive: true });
    const [answer] = await driver<Call[]>(setup, "calls", {
      target: filesystem,
      calls: [{ method: "Rmdir", request: { path: victim, force: true } }],
    });
    expect(answer?.code, answer?.details).toBe(PERMISSION_DENIED);
    expect(existsSync(driveC(setup, victim))).toBe(true);
  });

  it("20 clients at once, each on its own pipe instance, get every answer right", async () => {
    const codes = await driver<Record<string, number>>(setup, "concurrent", {
      target: filesystem,
      channels: 20,
      perChannel: 10,
      ...pathExists,
    });
    expect(codes).toEqual({ 'ok:{"exists":true}': 200 });
  });

  // Under the 256 KiB request limit (wire-limits.ts), yet many ReadFile completions long.
  it("a 200 KB request arrives whole (many ReadFile completions) and its error answers at once", async () => {
    const answers = await driver<Call[]>(setup, "calls", {
      target: filesystem,
      calls: [
        { method: "PathExists", request: { path: `${kubelet}\\${"a".repeat(200_000)}` } },
        pathExists,
      ],
    });
    expect(answers[0]?.code, answers[0]?.details?.slice(0, 200)).toBe(3);
    expect(answers[0]?.details).toContain("characters not sent");
    expect(answers[1]).toMatchObject({ code: 0, response: { exists: true } });
  });

  it("150 clients, one call each, on as many pipe instances", async () => {
    const codes = await driver<Record<string, number>>(setup, "concurrent", {
      target: filesystem,
      channels: 150,
      perChannel: 1,
      ...pathExists,
    });
    expect(codes).toEqual({ 'ok:{"exists":true}': 150 });
  });

  it("a client cancelling mid-call gets CANCELLED, and the pipe keeps serving", async () => {
    const { codes, after } = await driver<{ codes: Record<string, number>; after: Call }>(
      setup,
      "cancel",
      { target: filesystem, count: 40, maxDelayMs: 5, ...pathExists },
    );
    expect(
      Object.keys(codes).every((key) => key === "ok" || key === `code:${CANCELLED}`),
      JSON.stringify(codes),
    ).toBe(true);
    expect(codes[`code:${CANCELLED}`] ?? 0).toBeGreaterThan(0);
    expect(after).toMatchObject({ code: 0, response: { exists: true } });
  });

  it("malformed input (connect-and-close, half a preface, garbage, a 16 MiB frame) leaves it serving", async () => {
    const outcome = await driver<Record<string, { received: number }>>(setup, "malformed", {
      pipe: filesystem.pipe,
    });
    expect(Object.keys(outcome).sort()).toEqual([
      "connectAndClose",
      "garbage",
      "halfPreface",
      "hugeFrame",
    ]);
    await stillServes();
  });

  it("clients that vanish mid-call (a broken pipe under the server's write) leave it serving", async () => {
    // PathExistsRequest { path: kubelet } as protobuf: field 1, length-delimited.
    const path = Buffer.from(kubelet);
    const message = Buffer.concat([Buffer.from([0x0a, path.length]), path]).toString("base64");
    const outcomes = await driver<string[]>(setup, "broken", {
      pipe: filesystem.pipe,
      path: "/v1.Filesystem/PathExists",
      message,
      count: 10,
    });
    expect(outcomes).toHaveLength(10);
    await stillServes();
  });

  it("grpc-go ≤ 1.56's :authority (upstream's pipe target, backslashes doubled) is served, call after call", async () => {
    const path = Buffer.from(kubelet);
    const message = Buffer.concat([Buffer.from([0x0a, path.length]), path]).toString("base64");
    const outcomes = await driver<string[]>(setup, "authority", {
      pipe: filesystem.pipe,
      path: "/v1.Filesystem/PathExists",
      message,
      authority: String.raw`\\.\\pipe\\csi-proxy-filesystem-v1`,
      count: 3,
    });
    expect(outcomes).toEqual(["grpc-status:0", "grpc-status:0", "grpc-status:0"]);
  });

  it("a ping flood gets GOAWAY ENHANCE_YOUR_CALM too_many_pings and is closed; the pipe serves on", async () => {
    const outcome = await driver<{ acked: number; goaway?: unknown; closed: boolean }>(
      setup,
      "pings",
      { pipe: filesystem.pipe, count: 20 },
    );
    expect(outcome.goaway).toEqual({ code: 11, data: "too_many_pings" });
    expect(outcome.closed).toBe(true);
    expect(outcome.acked).toBeLessThan(20);
    await stillServes();
  });

  it("each pipe's DACL, read back with GetSecurityInfo, is the requested D:P(A;;GA;;;SY)(A;;GA;;;BA)", async () => {
    const dacls = await driver<Record<string, string>>(setup, "dacl", { names });
    for (const name of names)
      expect(canonical(dacls[name] ?? ""), name).toBe("D:P(A;;GA;;;SY)(A;;GA;;;BA)");
  });

  it("SIGINT (CTRL_C_EVENT) shuts it down: exit 0, every pipe gone, no process left", async () => {
    // A client that sent its preface and then neither reads on nor closes: it must not hold the stop.
    const readyFile = join(scratch(), "silent-ready");
    const held = startDriver<{ closedByServer: boolean }>(
      setup,
      "silent",
      { pipe: filesystem.pipe, holdMs: 60_000, readyFile: winPath(readyFile), preface: true },
      90_000,
    );
    await until(() => (existsSync(readyFile) ? true : undefined), 30_000, "the silent client");
    const code = await server.stop();
    expect(code, server.process.stderr()).toBe(0);
    expect(await held.result).toMatchObject({ closedByServer: true });
    expect(alive(server.process.child.pid)).toBe(false);
    const found = await driver<Record<string, string>>(setup, "probe", { names });
    // ERROR_FILE_NOT_FOUND: no instance of any name is left.
    for (const name of names) expect(found[name], name).toBe("absent:2");
  });
});

describe("--pipe-sid under Wine", () => {
  it("adds (A;;GRGW;;;<sid>) to every pipe's DACL, read back as requested", async () => {
    const sid = "S-1-5-21-1004336348-1177238915-682003330-1001";
    const server = await serve(["--pipe-sid", sid]);
    try {
      const dacls = await driver<Record<string, string>>(setup, "dacl", { names });
      for (const name of names)
        expect(canonical(dacls[name] ?? ""), name).toBe(
          canonical(`D:P(A;;GA;;;SY)(A;;GA;;;BA)(A;;GRGW;;;${sid})`),
        );
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});

describe("a squatter (the pipe name created before the server) under Wine", () => {
  it("Wine ignores FILE_FLAG_FIRST_PIPE_INSTANCE, measured by a direct call; so the refusal is the Windows workflow's", async () => {
    const direct = await driver<{
      firstCreated: boolean;
      secondRefused: boolean;
      secondError: number;
    }>(setup, "first-instance", { name: `\\\\.\\pipe\\csi-wine-first-${Date.now()}` });
    expect(direct.firstCreated).toBe(true);
    const dir = scratch();
    const readyFile = join(dir, "squatter.json");
    const squatter = startDriver(
      setup,
      "squat",
      { name: filesystem.pipe, holdMs: 60_000, readyFile: winPath(readyFile) },
      90_000,
    );
    // It is killed below, before it finishes: its missing output is expected.
    squatter.result.catch(() => undefined);
    try {
      await until(() => (existsSync(readyFile) ? true : undefined), 30_000, "the squatter's pipe");
      if (direct.secondRefused) {
        // A Wine that models the flag: the server must refuse to serve under the squatter's pipe.
        await expect(serve()).rejects.toThrow(/ALREADY_EXISTS/);
      } else {
        // Wine 8 lets a second FIRST_PIPE_INSTANCE creation succeed (it models no per-name
        // owner), so the server starts beside the squatter; on Windows it exits ALREADY_EXISTS.
        expect(direct.secondError).toBe(0);
        const server = await serve();
        expect(await server.stop()).toBe(0);
      }
    } finally {
      squatter.process.child.kill("SIGKILL");
      await squatter.process.exited;
    }
  });
});
