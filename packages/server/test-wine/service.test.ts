// `csi-proxy-server --windows-service` under Wine's service manager (services.exe): created,
// started, queried and stopped with Wine's sc.exe, as upstream's install scripts do with Windows'.
// Twice: bin.js in node.exe as upstream's name `csiproxy`, and the executable (pnpm
// package:windows) under a name of its own, as it is installed beside upstream's during a migration.
import { execFile } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  driveC,
  driver,
  endPrefix,
  policyFile,
  removeScratch,
  scratch,
  startDriver,
  until,
  upstreamPipeNames,
  winPath,
  wineSetup,
} from "./wine.js";

const setup = wineSetup();
afterAll(removeScratch);
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

async function state(service: string): Promise<string> {
  return /STATE\s*:\s*\d+\s+(\w+)/.exec(await sc("query", service))?.[1] ?? "NONE";
}

async function waitForState(service: string, wanted: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    last = await state(service);
    if (last === wanted) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${service} never reached ${wanted}; last state ${last}`);
}

/** The service's log: %ProgramData%, which Wine's services.exe sets to C:\users\Public. */
function serviceLog(): string | undefined {
  for (const dir of ["C:\\ProgramData", "C:\\users\\Public"]) {
    const file = join(driveC(setup, dir), "csi-proxy-server", "service.log");
    if (existsSync(file)) return readFileSync(file, "utf8");
  }
  return undefined;
}

/** Linux processes (Windows processes under Wine) running `program` as a service. */
function serviceProcesses(program: string): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        return cmdline.includes("--windows-service") && cmdline.includes(program);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/** The states the service reported (SetServiceStatus of the one SERVICE_WIN32_OWN_PROCESS). */
function reportedStates(trace: string): number[] {
  return [...trace.matchAll(/:trace:service:SetServiceStatus \S+ 0x10 0x(\d+) /g)].map((match) =>
    Number(match[1]),
  );
}

/**
 * The controls the service manager sent to the server. The trace names the service by the
 * server's dispatch table (`csiproxy`) whatever name it was created under: an own-process
 * service's table name is ignored (SERVICE_TABLE_ENTRYW), so it runs under any name.
 */
function controls(trace: string): number[] {
  return [...trace.matchAll(/service_handle_control L"csiproxy" control (\d+)/g)].map((match) =>
    Number(match[1]),
  );
}

/** How the service is started: node.exe and the deployed bin.js, or the executable alone. */
const commandLines = {
  "bin.js": () => [`"${winPath(setup.node)}"`, `"${winPath(join(setup.app, "dist", "bin.js"))}"`],
  "csi-proxy-server.exe": () => [`"${winPath(setup.exe)}"`],
};

const binPath = (program: keyof typeof commandLines) =>
  [
    ...commandLines[program](),
    "--windows-service",
    "--policy",
    `"${policyFile(kubelet, ["filesystem.PathExists"])}"`,
    "--kubelet-path",
    kubelet,
  ].join(" ");

async function startService(service: string): Promise<void> {
  const started = await sc("start", service);
  expect(started).toMatch(/START_PENDING|RUNNING/);
  await waitForState(service, "RUNNING");
}

describe.each([
  { program: "bin.js", service: "csiproxy" },
  { program: "csi-proxy-server.exe", service: "csi-proxy-server" },
] as const)(
  "--windows-service under Wine's service manager: $program as $service",
  ({ program, service }) => {
    // The prefix's first process after a restart passes its stderr and WINEDEBUG to the service
    // manager (and so to the services it starts): this one's stderr is the service trace. It also
    // keeps the prefix up: when a prefix's last plain process exits, Wine shuts the prefix down,
    // and services.exe's exit can kill the service before it handles SERVICE_CONTROL_SHUTDOWN
    // (a race seen both ways here), so SHUTDOWN is not tested under Wine.
    let keeper: ReturnType<typeof startDriver>;

    beforeAll(async () => {
      endPrefix(setup);
      mkdirSync(driveC(setup, kubelet), { recursive: true });
      for (const dir of ["C:\\ProgramData", "C:\\users\\Public"])
        rmSync(join(driveC(setup, dir), "csi-proxy-server"), { recursive: true, force: true });
      const readyFile = join(scratch(), "keeper");
      keeper = startDriver(
        setup,
        "hold",
        { holdMs: 150_000, readyFile: winPath(readyFile) },
        180_000,
        "+service",
      );
      keeper.result.catch(() => undefined);
      // Only once it runs may another Wine call come: whichever starts the prefix passes its stderr on.
      await until(() => (existsSync(readyFile) ? true : undefined), 60_000, "the keeper");
      await sc("delete", service);
      expect(await sc("create", service, "binPath=", binPath(program))).not.toMatch(/fail/i);
    });

    afterAll(async () => {
      keeper.process.child.kill("SIGKILL");
      await keeper.process.exited;
      await sc("stop", service);
      await sc("delete", service);
      endPrefix(setup);
    });

    it("sc start: RUNNING and serving; sc stop: STOP_PENDING, STOPPED, every pipe gone, no process left", async () => {
      await startService(service);
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
      expect(serviceProcesses(program)).toHaveLength(1);

      expect(await sc("stop", service)).toMatch(/STOP_PENDING|STOPPED/);
      await waitForState(service, "STOPPED");
      await until(
        () => (serviceProcesses(program).length === 0 ? true : undefined),
        30_000,
        "the service process to exit",
      );
      const found = await driver<Record<string, string>>(setup, "probe", { names });
      for (const name of names) expect(found[name], name).toBe("absent:2");
      // START_PENDING, RUNNING, then on SERVICE_CONTROL_STOP (1): STOP_PENDING, STOPPED.
      const trace = keeper.process.stderr();
      expect(controls(trace)).toContain(1);
      expect(reportedStates(trace)).toEqual([2, 4, 3, 1]);
    });
  },
);
