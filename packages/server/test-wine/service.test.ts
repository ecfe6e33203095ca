// `csi-proxy-server --windows-service` under Wine's service manager (services.exe): created,
// started, queried and stopped with Wine's sc.exe, as upstream's install scripts do with Windows'.
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  driveC,
  driver,
  policyFile,
  startDriver,
  until,
  upstreamPipeNames,
  winPath,
  wineSetup,
} from "./wine.js";

const setup = wineSetup();
const names = upstreamPipeNames();
const kubelet = "C:\\csi-wine\\kubelet";
const run = promisify(execFile);

/** Wine's sc.exe; its output, whatever its exit code (sc reports failures in text too). */
async function sc(...args: string[]): Promise<string> {
  try {
    const { stdout } = await run(setup.wine, ["sc", ...args], {
      env: { ...process.env, WINEPREFIX: setup.prefix, WINEDEBUG: "-all" },
      timeout: 30_000,
    });
    return stdout;
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

async function state(): Promise<string> {
  return /STATE\s*:\s*\d+\s+(\w+)/.exec(await sc("query", "csiproxy"))?.[1] ?? "NONE";
}

async function waitForState(wanted: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    last = await state();
    if (last === wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`csiproxy never reached ${wanted}; last state ${last}`);
}

/** The service's log: %ProgramData%, which Wine's services.exe sets to C:\users\Public. */
function serviceLog(): string | undefined {
  for (const dir of ["C:\\ProgramData", "C:\\users\\Public"]) {
    const file = join(driveC(setup, dir), "csi-proxy-server", "service.log");
    if (existsSync(file)) return readFileSync(file, "utf8");
  }
  return undefined;
}

/** Linux processes (Windows processes under Wine) running the deployed bin as a service. */
function serviceProcesses(): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        return cmdline.includes("--windows-service") && cmdline.includes("bin.js");
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe("--windows-service under Wine's service manager", () => {
  // A plain process in the prefix for the whole test: when the last one exits, Wine shuts the
  // prefix down and its service manager stops every service (what Windows does at shutdown).
  const keeper = startDriver(setup, "hold", { holdMs: 150_000 }, 180_000);
  keeper.result.catch(() => undefined);

  beforeAll(async () => {
    for (const dir of ["C:\\ProgramData", "C:\\users\\Public"])
      rmSync(join(driveC(setup, dir), "csi-proxy-server"), { recursive: true, force: true });
    await sc("delete", "csiproxy");
  });

  afterAll(async () => {
    await sc("stop", "csiproxy");
    await sc("delete", "csiproxy");
    keeper.process.child.kill("SIGKILL");
    await keeper.process.exited;
  });

  it("sc create, start: RUNNING and serving; sc stop: STOPPED, every pipe gone, no process left", async () => {
    const binPath = [
      `"${winPath(setup.node)}"`,
      `"${winPath(join(setup.app, "dist", "bin.js"))}"`,
      "--windows-service",
      "--policy",
      `"${policyFile(kubelet, ["filesystem.PathExists"])}"`,
      "--kubelet-path",
      kubelet,
    ].join(" ");
    expect(await sc("create", "csiproxy", "binPath=", binPath)).not.toMatch(/fail/i);
    const started = await sc("start", "csiproxy");
    expect(started).toMatch(/START_PENDING|RUNNING/);
    await waitForState("RUNNING");
    expect(serviceLog()).toMatch(/\{"ready":true/);

    const [answer] = await driver<{ code: number; response?: unknown }[]>(setup, "calls", {
      target: {
        pipe: "\\\\.\\pipe\\csi-proxy-filesystem-v1",
        protoFile: winPath(join(setup.app, "proto", "filesystem", "v1", "api.proto")),
        service: "v1.Filesystem",
      },
      calls: [{ method: "PathExists", request: { path: kubelet } }],
    });
    expect(answer).toMatchObject({ code: 0, response: { exists: true } });
    expect(serviceProcesses()).toHaveLength(1);

    expect(await sc("stop", "csiproxy")).toMatch(/STOP_PENDING|STOPPED/);
    await waitForState("STOPPED");
    await until(
      () => (serviceProcesses().length === 0 ? true : undefined),
      30_000,
      "the service process to exit",
    );
    const found = await driver<Record<string, string>>(setup, "probe", { names });
    for (const name of names) expect(found[name], name).toBe("absent:2");
  });
});
