// Runs Windows Node under Wine for the Win32 suite: the built server (the deployed copy that
// tools/wine/provision.mjs made) and the client driver (client/driver.mjs). Every process is
// bounded: it is killed once its time is up, and stdout/stderr go to files (Windows Node under
// Wine fails with EBADF on pipes).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Where `pnpm test:win32` put Wine, node.exe, the deployed server, the executable and the prefix. */
export interface WineSetup {
  readonly wine: string;
  readonly node: string;
  readonly app: string;
  readonly prefix: string;
  /** `csi-proxy-server.exe` as `pnpm package:windows` wrote it. */
  readonly exe: string;
  /** koffi's Windows binary the executable carries (npm's @koromix/koffi-win32-x64). */
  readonly koffiNode: string;
}

/** The setup from the environment `tools/wine/run.mjs` sets; throws when run any other way. */
export function wineSetup(env: NodeJS.ProcessEnv = process.env): WineSetup {
  const { CSI_WINE_BIN, CSI_WINE_NODE, CSI_WINE_APP, WINEPREFIX, CSI_WINE_EXE } = env;
  const { CSI_WINE_KOFFI_NODE } = env;
  if (
    !CSI_WINE_BIN ||
    !CSI_WINE_NODE ||
    !CSI_WINE_APP ||
    !WINEPREFIX ||
    !CSI_WINE_EXE ||
    !CSI_WINE_KOFFI_NODE
  )
    throw new Error("the Win32 suite runs through `pnpm test:win32` (tools/wine/run.mjs)");
  return {
    wine: CSI_WINE_BIN,
    node: CSI_WINE_NODE,
    app: CSI_WINE_APP,
    prefix: WINEPREFIX,
    exe: CSI_WINE_EXE,
    koffiNode: CSI_WINE_KOFFI_NODE,
  };
}

/** A Linux path as Windows programs under Wine see it (drive Z: is `/`). */
export function winPath(path: string): string {
  return `Z:${resolve(path).replaceAll("/", "\\")}`;
}

/** Where a `C:\...` path of the prefix lives on Linux. */
export function driveC(setup: WineSetup, path: string): string {
  const rest = path.replace(/^C:\\/i, "").split("\\");
  return join(setup.prefix, "drive_c", ...rest);
}

/** The upstream pipe names, one per proto the package vendors (proto/<group>/<version>/api.proto). */
export function upstreamPipeNames(): string[] {
  const proto = fileURLToPath(new URL("../proto", import.meta.url));
  return readdirSync(proto).flatMap((group) =>
    readdirSync(join(proto, group)).map((version) => `\\\\.\\pipe\\csi-proxy-${group}-${version}`),
  );
}

/** A policy file granting the local caller `methods` under `root`, as Windows sees its path. */
export function policyFile(root: string, methods: readonly string[]): string {
  const file = join(scratch(), "policy.json");
  const rule = { name: "wine", callers: [{ local: true }], methods, paths: [root] };
  writeFileSync(file, JSON.stringify({ version: 1, rules: [rule] }));
  return winPath(file);
}

// One folder per test file for every scratch folder; each file's afterAll removes it.
let scratchRoot: string | undefined;

/** A fresh folder for one test's files. */
export function scratch(): string {
  scratchRoot ??= mkdtempSync(join(tmpdir(), "csi-wine-"));
  return mkdtempSync(join(scratchRoot, "t-"));
}

/** Removes every scratch folder (each test file's last afterAll). */
export function removeScratch(): void {
  if (scratchRoot !== undefined) rmSync(scratchRoot, { recursive: true, force: true });
  scratchRoot = undefined;
}

/** A Windows process under Wine; `exited` settles with its exit code (null when killed). */
export interface WinProcess {
  readonly child: ChildProcess;
  readonly exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
}

/** Starts `node.exe <args>` (or `program <args>`) under Wine, killed after `timeoutMs`. */
export function spawnWin(
  setup: WineSetup,
  args: readonly string[],
  {
    timeoutMs,
    dir = scratch(),
    winedebug = "-all",
    program = setup.node,
  }: { timeoutMs: number; dir?: string; winedebug?: string; program?: string },
): WinProcess {
  const out = join(dir, `out-${process.hrtime.bigint()}.log`);
  const err = `${out}.err`;
  const fds = [openSync(out, "w"), openSync(err, "w")] as const;
  const child = spawn(setup.wine, [program, ...args], {
    env: { ...process.env, WINEPREFIX: setup.prefix, WINEDEBUG: winedebug },
    stdio: ["ignore", fds[0], fds[1]],
  });
  for (const fd of fds) closeSync(fd);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const exited = new Promise<number | null>((resolvePromise) => {
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolvePromise(code);
    });
  });
  return {
    child,
    exited,
    stdout: () => readFileSync(out, "utf8"),
    stderr: () => readFileSync(err, "utf8"),
  };
}

/** The driver's copy inside the deployed app, so it resolves grpc-js and koffi from there. */
function driverPath(setup: WineSetup): string {
  const dir = join(setup.app, "wine-client");
  mkdirSync(dir, { recursive: true });
  const target = join(dir, "driver.mjs");
  copyFileSync(fileURLToPath(new URL("client/driver.mjs", import.meta.url)), target);
  return target;
}

/** Starts one driver command; `result` resolves with what it returned, or rejects with its error. */
export function startDriver<T>(
  setup: WineSetup,
  command: string,
  input: unknown,
  timeoutMs = 60_000,
  winedebug?: string,
): { process: WinProcess; result: Promise<T> } {
  const dir = scratch();
  const inputFile = join(dir, "input.json");
  const outputFile = join(dir, "output.json");
  writeFileSync(inputFile, JSON.stringify(input));
  const proc = spawnWin(
    setup,
    [winPath(driverPath(setup)), command, winPath(inputFile), winPath(outputFile)],
    { timeoutMs, dir, ...(winedebug === undefined ? {} : { winedebug }) },
  );
  const result = proc.exited.then((code) => {
    let output: { ok: boolean; result?: T; error?: string };
    try {
      output = JSON.parse(readFileSync(outputFile, "utf8")) as typeof output;
    } catch {
      throw new Error(`driver ${command} exited ${code} with no output: ${proc.stderr()}`);
    }
    if (!output.ok) throw new Error(`driver ${command} failed: ${output.error ?? ""}`);
    return output.result as T;
  });
  return { process: proc, result };
}

/** Runs one driver command to the end. */
export function driver<T>(setup: WineSetup, command: string, input: unknown, timeoutMs?: number) {
  return startDriver<T>(setup, command, input, timeoutMs).result;
}

/** The server's ready line (the fields the suite reads). */
export interface WineReady {
  readonly ready: true;
  readonly version: string;
  readonly endpoints: Record<string, string>;
  readonly pid: number;
}

/** The deployed server (`dist/bin.js`) running in node.exe under Wine. */
export interface WineServer {
  readonly ready: WineReady;
  readonly process: WinProcess;
  /** SIGINT (Wine delivers it as CTRL_C_EVENT, which Node reports as SIGINT), then the exit code. */
  stop(): Promise<number | null>;
}

/** Waits until `check` returns a value, polling every 100 ms, for at most `timeoutMs`. */
export async function until<T>(
  check: () => T | undefined,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolvePromise) => setTimeout(resolvePromise, 100));
  }
}

/**
 * Starts the server with `args` and waits for its ready line; rejects with its stderr when it
 * exits first. Bounded: killed after `timeoutMs` whatever happens. The deployed `dist/bin.js` in
 * node.exe, or the executable `exe` (pnpm package:windows) when given.
 */
export async function startServer(
  setup: WineSetup,
  args: readonly string[],
  timeoutMs = 180_000,
  exe?: string,
): Promise<WineServer> {
  const proc =
    exe === undefined
      ? spawnWin(setup, [winPath(join(setup.app, "dist", "bin.js")), ...args], { timeoutMs })
      : spawnWin(setup, args, { timeoutMs, program: exe });
  let exitCode: number | null | undefined;
  void proc.exited.then((code) => (exitCode = code === null ? -1 : code));
  const line = await until(
    () => {
      const first = proc.stdout().split("\n")[0] ?? "";
      if (first.startsWith("{")) return first;
      if (exitCode !== undefined)
        throw new Error(`the server exited (${exitCode}) before it was ready: ${proc.stderr()}`);
      return undefined;
    },
    60_000,
    "the server's ready line",
  );
  return {
    ready: JSON.parse(line) as WineReady,
    process: proc,
    async stop() {
      proc.child.kill("SIGINT");
      return proc.exited;
    },
  };
}

/** Ends every process of the suite's prefix (wineserver -k): the next Wine call starts it afresh. */
export function endPrefix(setup: WineSetup): void {
  // -k exits non-zero when no wineserver runs (nothing to end then); -w waits until it is gone,
  // so the next Wine call starts a new one rather than joining the one going away.
  for (const flag of ["-k", "-w"])
    spawnSync(join(dirname(setup.wine), "wineserver"), [flag], {
      env: { ...process.env, WINEPREFIX: setup.prefix },
      stdio: "ignore",
      timeout: 30_000,
    });
}

/** Whether the Linux process `pid` (a Windows process under Wine) still exists. */
export function alive(pid: number | undefined): boolean {
  if (pid === undefined) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
