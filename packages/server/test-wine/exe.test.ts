// csi-proxy-server.exe (pnpm package:windows) under Wine: one file, copied alone into a folder,
// does what the deployed bin.js does in node.exe. It carries koffi's Windows binary and loads it
// from a private copy it writes beside itself (csi-proxy-server.runtime/<digest>/koffi.node),
// checked byte for byte on every start. Wine checks no access: whether that folder's ACL is the
// executable folder's on Windows is not shown here.
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { serverVersion } from "../src/version.js";
import {
  driveC,
  driver,
  policyFile,
  removeScratch,
  scratch,
  spawnWin,
  startServer,
  upstreamPipeNames,
  winPath,
  wineSetup,
} from "./wine.js";

const setup = wineSetup();
afterAll(removeScratch);
const names = upstreamPipeNames();
const kubelet = "C:\\csi-wine\\exe-kubelet";

/** A folder holding the executable and nothing else: no node.exe, no node_modules. */
function alone(): string {
  const dir = scratch();
  copyFileSync(setup.exe, join(dir, "csi-proxy-server.exe"));
  return join(dir, "csi-proxy-server.exe");
}

function serve(exe: string) {
  mkdirSync(driveC(setup, kubelet), { recursive: true });
  const policy = policyFile(kubelet, ["filesystem.PathExists", "filesystem.Mkdir"]);
  return startServer(setup, ["--policy", policy, "--kubelet-path", kubelet], 180_000, winPath(exe));
}

/** The runtime folder beside `exe` (one per build): the private copy of koffi's binary is there. */
function runtimeKoffi(exe: string): string {
  const base = join(exe, "..", "csi-proxy-server.runtime");
  const [digest, ...others] = readdirSync(base);
  expect(others).toEqual([]);
  return join(base, digest ?? "", "koffi.node");
}

describe("csi-proxy-server.exe under Wine", () => {
  it("--version prints the package's version and nothing else", async () => {
    const proc = spawnWin(setup, ["--version"], { timeoutMs: 60_000, program: winPath(alone()) });
    expect(await proc.exited, proc.stderr()).toBe(0);
    expect(proc.stdout()).toBe(`${serverVersion}\n`);
    expect(proc.stderr()).toBe("");
  });

  it("alone in a folder: every upstream pipe served, a call answered, koffi loaded from its own copy", async () => {
    const exe = alone();
    const server = await serve(exe);
    try {
      expect(server.ready.version).toBe(serverVersion);
      expect(Object.values(server.ready.endpoints).sort()).toEqual([...names].sort());
      const found = await driver<Record<string, string>>(setup, "probe", { names });
      for (const name of names) expect(found[name], name).toBe("present");
      const made = `${kubelet}\\exe-${Date.now()}`;
      const answers = await driver<{ code: number; response?: unknown }[]>(setup, "calls", {
        target: {
          pipe: "\\\\.\\pipe\\csi-proxy-filesystem-v1",
          protoFile: winPath(join(setup.app, "proto", "filesystem", "v1", "api.proto")),
          service: "v1.Filesystem",
        },
        calls: [
          { method: "Mkdir", request: { path: made } },
          { method: "PathExists", request: { path: made } },
        ],
      });
      expect(answers).toMatchObject([{ code: 0 }, { code: 0, response: { exists: true } }]);
      expect(existsSync(driveC(setup, made))).toBe(true);
      // The pipes' DACLs come through koffi: serving them at all means the copy loaded.
      expect(readFileSync(runtimeKoffi(exe)).equals(readFileSync(setup.koffiNode))).toBe(true);
    } finally {
      expect(await server.stop(), server.process.stderr()).toBe(0);
    }
  });

  it("a runtime file changed on disk is written again before it is loaded", async () => {
    const exe = alone();
    const first = await serve(exe);
    expect(await first.stop()).toBe(0);
    const koffi = runtimeKoffi(exe);
    writeFileSync(koffi, "not koffi");
    const again = await serve(exe);
    try {
      const found = await driver<Record<string, string>>(setup, "probe", {
        names: ["\\\\.\\pipe\\csi-proxy-disk-v1"],
      });
      expect(found).toEqual({ "\\\\.\\pipe\\csi-proxy-disk-v1": "present" });
      expect(readFileSync(runtimeKoffi(exe)).equals(readFileSync(setup.koffiNode))).toBe(true);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  });
});
