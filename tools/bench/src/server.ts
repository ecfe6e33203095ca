// What `@csi-proxy/server` adds to a library call: the same read through the bin over gRPC on a
// Unix socket (policy check, audit line, status mapping included) and directly, side by side.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { status } from "@grpc/grpc-js";
import { System } from "@csi-proxy/system";
import { createSimulatedPowerShell, scenarios, Simulator } from "@csi-proxy/winsim";
import { measureCalls, type Budget, type Row } from "./measure.js";
import { processMemory } from "./memory.js";
import { V1Client } from "./rpc.js";
import { spawnReady, startServerBin, stopChild } from "./server-bin.js";

/** The server's own memory (the Node process; its PowerShell process is counted apart). */
export interface ServerMemory {
  readonly readyMiB: number;
  readonly afterCallsMiB: number;
  readonly peakMiB: number;
  readonly calls: number;
}

/** The direct and the gRPC row of one read, the floor under the gRPC row, and the server's memory. */
export interface ServerResults {
  readonly direct: Row;
  readonly viaServer: Row;
  /** The same RPC refused by the server's policy: identity, decision, audit line, status; no host call. */
  readonly denied?: Row | undefined;
  /**
   * The refused RPC again with the :authority grpc-go up to 1.56 sends (upstream's pipe target),
   * which the server rewrites on the way in (`src/wire/`) before nghttp2 reads it.
   */
  readonly rewritten?: Row | undefined;
  /** The same RPC answered by a grpc-js server that does nothing, on the same kind of socket. */
  readonly floor?: Row | undefined;
  readonly memory: ServerMemory;
}

/** The target: the server's own work per RPC (policy, audit, status mapping, identity), median. */
export const serverOverheadTargetMs = 0.5;

const budget: Budget = { timeMs: 3_000, iterations: 200, warmupIterations: 20 };
const floorServer = fileURLToPath(new URL("./floor-server.js", import.meta.url));

/** The floor: GetBIOSSerialNumber answered at once by a bare grpc-js server in its own process. */
async function measureFloor(dir: string): Promise<Row> {
  const socket = join(dir, "floor.sock");
  const { child } = await spawnReady(floorServer, [socket]);
  try {
    const client = new V1Client(socket, "system", "v1alpha1");
    try {
      const call = client.bare("GetBIOSSerialNumber");
      await call();
      return await measureCalls(
        "GetBIOSSerialNumber, v1 client → no-op grpc-js server (floor)",
        call,
        budget,
      );
    } finally {
      client.close();
    }
  } finally {
    await stopChild(child);
  }
}

// The allowed set gets the one RPC; the "denied" set's caller is refused it by the policy alone.
const benchPolicy = {
  version: 1,
  rules: [
    {
      name: "bench",
      callers: [{ endpointSet: "default" }],
      methods: ["system.GetBIOSSerialNumber"],
    },
  ],
};

async function startBin(pwsh: string, dir: string) {
  const policy = join(dir, "policy.json");
  writeFileSync(policy, JSON.stringify(benchPolicy));
  const started = await startServerBin(pwsh, [
    "--simulate",
    "--policy",
    policy,
    "--endpoint-set",
    "default",
    "--endpoint-set",
    "denied",
    "--socket-dir",
    join(dir, "s"),
    "--audit-log",
    join(dir, "audit.jsonl"),
  ]);
  return {
    started,
    socket: started.endpoints["system-v1alpha1"] ?? "",
    deniedSocket: started.endpoints["denied/system-v1alpha1"] ?? "",
  };
}

/** Resolves once the call is refused with PERMISSION_DENIED; an answer or another status fails the bench. */
function refusedCall(client: V1Client): () => Promise<void> {
  const call = client.bare("GetBIOSSerialNumber");
  return () =>
    call().then(
      () => Promise.reject(new Error("the denied endpoint set was answered")),
      (error: unknown) =>
        (error as { code?: unknown }).code === status.PERMISSION_DENIED
          ? undefined
          : Promise.reject(error as Error),
    );
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
  const { started, socket, deniedSocket } = await startBin(pwsh, dir);
  const pid = started.child.pid ?? 0;
  const client = new V1Client(socket, "system", "v1alpha1");
  const deniedClient = new V1Client(deniedSocket, "system", "v1alpha1");
  const oldGoClient = new V1Client(deniedSocket, "system", "v1alpha1", {
    "grpc.default_authority": String.raw`\\.\\pipe\\csi-proxy-system-v1alpha1`,
  });
  const call = client.bare("GetBIOSSerialNumber");
  try {
    await call();
    const ready = processMemory(pid);
    const viaServer = await measureCalls(
      "GetBIOSSerialNumber, v1 client → csi-proxy-server",
      call,
      budget,
    );
    const after = processMemory(pid);
    const refused = refusedCall(deniedClient);
    await refused();
    const denied = await measureCalls(
      "GetBIOSSerialNumber, refused by the policy (no host call)",
      refused,
      budget,
    );
    const refusedOldGo = refusedCall(oldGoClient);
    await refusedOldGo();
    const rewritten = await measureCalls(
      "GetBIOSSerialNumber, refused, :authority as grpc-go ≤ 1.56 sends it (rewritten)",
      refusedOldGo,
      budget,
    );
    // Same run, same kind of socket, same client: what gRPC alone costs.
    const floor = await measureFloor(dir);
    return {
      direct,
      viaServer,
      denied,
      rewritten,
      floor,
      memory: {
        readyMiB: ready?.rssMiB ?? Number.NaN,
        afterCallsMiB: after?.rssMiB ?? Number.NaN,
        peakMiB: after?.peakMiB ?? Number.NaN,
        calls: viaServer.samples + budget.warmupIterations + 1,
      },
    };
  } finally {
    client.close();
    deniedClient.close();
    oldGoClient.close();
    await started.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
