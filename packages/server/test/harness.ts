import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { servedApis } from "../src/endpoints.js";
import { RawGrpcClient } from "./raw-grpc.js";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

/** The bin's ready line. */
export interface Ready {
  readonly ready: true;
  readonly version: string;
  readonly endpoints: Record<string, string>;
  readonly kubeletPath: string;
  readonly workingDirs: string[];
  readonly pid: number;
  readonly simulator: { readonly dir: string; readonly root: string };
  readonly metricsAddress?: string;
}

/** The built bin, running as a child process. */
export interface RunningBin {
  readonly ready: Ready;
  readonly socketDir: string;
  readonly child: ChildProcess;
  /** What it wrote to stderr so far. */
  stderr(): string;
  /**
   * The raw client of an endpoint (`disk-v1`, ..., `<set>/disk-v1` in a named endpoint set): one
   * connection per endpoint, kept as a driver keeps it, closed by {@link RunningBin.stop}.
   */
  client(endpoint: string): RawGrpcClient;
  /** SIGTERM, then the exit code once it is gone. */
  stop(): Promise<number | null>;
}

/**
 * Runs the built bin with these arguments and waits for its ready line: with `--socket-dir` in a
 * new temp folder and the simulator's pwsh, or, for named pipes on Windows (`pwsh` undefined),
 * as it is.
 */
export async function startBin(
  pwsh: string | undefined,
  args: readonly string[],
): Promise<RunningBin> {
  const socketDir = join(mkdtempSync(join(tmpdir(), "csi-srv-")), "sockets");
  const where = pwsh === undefined ? [] : ["--socket-dir", socketDir];
  const child = spawn(process.execPath, [bin, ...where, ...args], {
    env: pwsh === undefined ? process.env : { ...process.env, CSI_WINSIM_PWSH: pwsh },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once("exit", (code) => resolve(code)),
  );
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once("line", resolve);
    void exited.then((code) =>
      reject(new Error(`the bin exited (${code}) before it was ready: ${stderr}`)),
    );
  });
  const ready = JSON.parse(first) as Ready;
  const clients = new Map<string, RawGrpcClient>();
  return {
    ready,
    socketDir,
    child,
    stderr: () => stderr,
    client(endpoint) {
      const made = clients.get(endpoint);
      if (made !== undefined) return made;
      // A named set's endpoints are keyed `<set>/<group>-<version>`.
      const key = endpoint.slice(endpoint.indexOf("/") + 1);
      const api = servedApis.find((a) => `${a.group}-${a.version}` === key);
      const path = ready.endpoints[endpoint];
      if (api === undefined || path === undefined) throw new Error(`no endpoint ${endpoint}`);
      const client = new RawGrpcClient(path, api.protoFile, `${api.version}.${api.service}`);
      clients.set(endpoint, client);
      return client;
    },
    async stop() {
      for (const client of clients.values()) client.close();
      child.kill("SIGTERM");
      return exited;
    },
  };
}

/**
 * What kubelet does on the simulated node before NodePublishVolume: it makes the pod volume
 * folder (`pods\<uid>\volumes\kubernetes.io~csi\<pv>`) and writes `vol_data.json` there,
 * naming the driver (csi_mounter.go, SetUpAt). Returns the folder's Windows path.
 */
export function kubeletPublishes(root: string, podUid: string, pv: string, driver: string): string {
  const folder = join(
    root,
    "var",
    "lib",
    "kubelet",
    "pods",
    podUid,
    "volumes",
    "kubernetes.io~csi",
    pv,
  );
  mkdirSync(folder, { recursive: true });
  const data = {
    driverName: driver,
    specVolID: pv,
    volumeHandle: `${pv}-handle`,
    nodeName: "node-1",
  };
  writeFileSync(join(folder, "vol_data.json"), JSON.stringify(data));
  return `C:\\var\\lib\\kubelet\\pods\\${podUid}\\volumes\\kubernetes.io~csi\\${pv}`;
}

/**
 * The bin on a simulated node of `scenario` under `policy` (a policy object, or a built-in
 * policy's name such as `v1-compatible`), auditing to a file of its own.
 */
export async function startOnScenario(
  pwsh: string,
  scenario: unknown,
  policy: unknown,
  args: readonly string[] = [],
): Promise<{ bin: RunningBin; dir: string; auditLog: string }> {
  const dir = mkdtempSync(join(tmpdir(), "csi-scenario-"));
  writeFileSync(join(dir, "scenario.json"), JSON.stringify(scenario));
  writeFileSync(join(dir, "policy.json"), JSON.stringify(policy));
  const policyArg = typeof policy === "string" ? policy : join(dir, "policy.json");
  const auditLog = join(dir, "audit.jsonl");
  const bin = await startBin(pwsh, [
    "--simulate-scenario",
    join(dir, "scenario.json"),
    "--policy",
    policyArg,
    "--audit-log",
    auditLog,
    ...args,
  ]);
  return { bin, dir, auditLog };
}
