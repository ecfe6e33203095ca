// What `@csi-proxy/server` adds to a library call: the same read through the bin over gRPC on a
// Unix socket (policy check, audit line, status mapping included) and directly, side by side.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { credentials, loadPackageDefinition, type Client, type GrpcObject } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { protoDir } from "@csi-proxy/server";
import { System } from "@csi-proxy/system";
import { createSimulatedPowerShell, scenarios, Simulator } from "@csi-proxy/winsim";
import { measureCalls, type Budget, type Row } from "./measure.js";
import { processMemory } from "./memory.js";

/** The server's own memory (the Node process; its PowerShell process is counted apart). */
export interface ServerMemory {
  readonly readyMiB: number;
  readonly afterCallsMiB: number;
  readonly peakMiB: number;
  readonly calls: number;
}

/** The direct and the gRPC row of one read, and the server's memory. */
export interface ServerResults {
  readonly direct: Row;
  readonly viaServer: Row;
  readonly memory: ServerMemory;
}

const budget: Budget = { timeMs: 3_000, iterations: 200, warmupIterations: 20 };
const bin = createRequire(import.meta.url)
  .resolve("@csi-proxy/server/package.json")
  .replace(/package\.json$/, "dist/bin.js");

type Unary = (request: object, callback: (error: Error | null, reply: unknown) => void) => void;

function systemClient(socket: string): Client & Record<string, Unary> {
  const definition = loadSync(join(protoDir, "system/v1alpha1/api.proto"), {
    keepCase: true,
    includeDirs: [protoDir],
  });
  const v1alpha1 = loadPackageDefinition(definition).v1alpha1 as GrpcObject;
  const System = v1alpha1.System as unknown as new (
    address: string,
    creds: ReturnType<typeof credentials.createInsecure>,
  ) => Client & Record<string, Unary>;
  return new System(`unix:${socket}`, credentials.createInsecure());
}

async function startBin(pwsh: string, dir: string) {
  const child = spawn(
    process.execPath,
    [
      bin,
      "--simulate",
      "--policy",
      "v1-compatible",
      "--socket-dir",
      join(dir, "s"),
      "--audit-log",
      join(dir, "audit.jsonl"),
    ],
    { env: { ...process.env, CSI_WINSIM_PWSH: pwsh }, stdio: ["ignore", "pipe", "inherit"] },
  );
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`csi-proxy-server exited (${code})`)));
  });
  const ready = JSON.parse(line) as { endpoints: Record<string, string> };
  return { child, socket: ready.endpoints["system-v1alpha1"] ?? "" };
}

/** GetBIOSSerialNumber through the server and `System.getBiosSerialNumber()` directly, on equal simulated nodes. */
export async function measureServer(pwsh: string): Promise<ServerResults> {
  const sim = await Simulator.create(scenarios.demoNode());
  const shell = await createSimulatedPowerShell(sim, { pwsh: { path: pwsh } });
  let direct: Row;
  try {
    const system = new System({ shell });
    direct = await measureCalls(
      "getBiosSerialNumber, library call",
      () => system.getBiosSerialNumber(),
      budget,
    );
  } finally {
    await shell.close();
    await sim.dispose();
  }
  const dir = mkdtempSync(join(tmpdir(), "bench-server-"));
  const { child, socket } = await startBin(pwsh, dir);
  const pid = child.pid ?? 0;
  const client = systemClient(socket);
  const call = () =>
    new Promise<void>((resolve, reject) =>
      client.GetBIOSSerialNumber?.({}, (error) => (error === null ? resolve() : reject(error))),
    );
  try {
    await call();
    const ready = processMemory(pid);
    const viaServer = await measureCalls(
      "GetBIOSSerialNumber, v1 client → csi-proxy-server",
      call,
      budget,
    );
    const after = processMemory(pid);
    return {
      direct,
      viaServer,
      memory: {
        readyMiB: ready?.rssMiB ?? Number.NaN,
        afterCallsMiB: after?.rssMiB ?? Number.NaN,
        peakMiB: after?.peakMiB ?? Number.NaN,
        calls: viaServer.samples + budget.warmupIterations + 1,
      },
    };
  } finally {
    client.close();
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
}
