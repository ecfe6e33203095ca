// The server driven by the stack every Go CSI driver uses: grpc-go (Debian's 1.33), stubs
// generated from proto/, dialling as upstream's client/ does (test-go/client). grpc-go up to
// 1.56 sends the dial target as :authority, which Node's HTTP/2 refused on every stream.
import { existsSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { connect, createServer, type Server as NetServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pwshPath } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { endpointName, servedApis } from "../src/endpoints.js";
import { startServer, tokenRefused } from "../src/server.js";
import { defaultWireLimits } from "../src/wire-limits.js";
import {
  describeWithGo,
  goClient,
  runGo,
  startGo,
  type GoEndpoint,
  type GoPlan,
} from "./grpc-go.js";
import { startBin, type RunningBin } from "./harness.js";
import { FakePipes } from "./pipes-fake.js";
import { RawGrpcClient } from "./raw-grpc.js";

interface Outcome {
  readonly code: number;
  readonly codeName: string;
  readonly message: string;
  readonly response?: Record<string, unknown>;
}
type EndpointOutcome = Outcome & { key: string; method: string; request: Record<string, unknown> };

const kubelet = "C:\\var\\lib\\kubelet";

// What each group's call (test-go/client/endpoints.go) gets on the simulated demo node: removing
// a mapping that is not there is done (idempotent), and the iSCSI initiator service is stopped.
function expectedCode(key: string): string {
  return key.slice(key.indexOf("/") + 1).startsWith("iscsi-") ? "FailedPrecondition" : "OK";
}

/** The socket files left under `dir`, in any endpoint set's folder. */
function socketsLeft(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isSocket())
    .map((entry) => entry.name);
}

// The default set may do what upstream allowed; the "denied" set nothing.
const policy = {
  version: 1,
  rules: [
    {
      name: "go-suite",
      callers: [{ endpointSet: "default" }],
      methods: ["*", "iscsi.SetMutualChapSecret"],
      paths: [kubelet],
      smbRemotePaths: ["*"],
      iscsiPortals: ["*"],
      iscsiTargets: ["*"],
      disks: "*",
      volumes: ["*"],
      services: ["*"],
    },
  ],
};

function goEndpoints(endpoints: Readonly<Record<string, string>>): GoEndpoint[] {
  return Object.entries(endpoints).map(([key, socket]) => {
    const set = key.includes("/") ? key.slice(0, key.indexOf("/")) : "default";
    const api = servedApis.find((a) => key.endsWith(`${a.group}-${a.version}`));
    if (api === undefined) throw new Error(`no API for ${key}`);
    return { key, name: endpointName(set, api), socket };
  });
}

/** The same call by the raw client (no gRPC library), for the Go client's answers to match. */
async function rawReply(socket: string, key: string, method: string, request: object) {
  const api = servedApis.find((a) => key.endsWith(`${a.group}-${a.version}`));
  if (api === undefined) throw new Error(`no API for ${key}`);
  const client = new RawGrpcClient(socket, api.protoFile, `${api.version}.${api.service}`);
  try {
    return await client.call(method, request as Record<string, unknown>, { timeoutMs: 30_000 });
  } finally {
    client.close();
  }
}

describeWithGo("grpc-go 1.33 clients (upstream's dialling) against csi-proxy-server", () => {
  let bin: RunningBin;
  let plan: (authority: GoPlan["authority"]) => GoPlan;
  let keepalive: Promise<Record<string, unknown>[]>;

  beforeAll(async () => {
    goClient();
    const pwsh = pwshPath();
    if (pwsh === undefined) throw new Error("the grpc-go suite needs the simulated node's pwsh");
    const dir = mkdtempSync(join(tmpdir(), "csi-go-"));
    writeFileSync(join(dir, "policy.json"), JSON.stringify(policy));
    bin = await startBin(pwsh, [
      "--simulate",
      "--policy",
      join(dir, "policy.json"),
      "--endpoint-set",
      "default",
      "--endpoint-set",
      "denied",
    ]);
    const endpoints = goEndpoints(bin.ready.endpoints);
    plan = (authority) => ({
      endpoints,
      authority,
      faults: join(bin.ready.simulator.dir, "faults.json"),
    });
    // Runs beside the other tests: 300 calls on one connection, then 21 s idle with 10 s pings.
    keepalive = runGo("keepalive", plan("pipe"), "21");
  }, 300_000);

  afterAll(async () => {
    expect(await bin.stop()).toBe(0);
    expect(socketsLeft(bin.socketDir)).toEqual([]);
  });

  it("upstream's target as :authority (\\\\.\\\\pipe\\\\…, as grpc-go ≤ 1.56 sends it): every group-version answers as to a raw client", async () => {
    const defaults = goEndpoints(bin.ready.endpoints).filter((e) => !e.key.includes("/"));
    const results = await runGo<EndpointOutcome>("endpoints", {
      ...plan("pipe"),
      endpoints: defaults,
      leakProbe: true,
    });
    expect(results.map((r) => r.key).sort()).toEqual(
      servedApis.map((api) => `${api.group}-${api.version}`).sort(),
    );
    for (const result of results) {
      expect(result.codeName, `${result.key}: ${result.message}`).toBe(expectedCode(result.key));
      const socket = bin.ready.endpoints[result.key] ?? "";
      const raw = await rawReply(socket, result.key, result.method, result.request);
      expect([result.key, result.code], result.message).toEqual([result.key, raw.code]);
      if (raw.code === 0) expect(result.response, result.key).toEqual(raw.message);
      else expect(result.message, result.key).toBe(raw.details);
    }
  }, 120_000);

  it("a socket path as :authority, and the percent-encoded one of grpc-go ≥ 1.57: the same answers", async () => {
    const defaults = goEndpoints(bin.ready.endpoints).filter((e) => !e.key.includes("/"));
    const pipe = await runGo<EndpointOutcome>("endpoints", {
      ...plan("pipe"),
      endpoints: defaults,
    });
    for (const authority of ["socket", "encoded"] as const) {
      const other = await runGo<EndpointOutcome>("endpoints", {
        ...plan(authority),
        endpoints: defaults,
      });
      expect(
        other.map((r) => [r.key, r.code, r.message]),
        authority,
      ).toEqual(pipe.map((r) => [r.key, r.code, r.message]));
    }
  }, 120_000);

  it("the documented status codes, as status.FromError reads them", async () => {
    const results = await runGo<Outcome & { name: string }>("statuses", plan("pipe"));
    const byName = Object.fromEntries(results.map((r) => [r.name, r]));
    expect(byName["ok"]).toMatchObject({ codeName: "OK", response: { exists: true } });
    expect(byName["not-absolute"]).toMatchObject({ codeName: "InvalidArgument" });
    expect(byName["not-absolute"]?.message).toContain("not an absolute Windows path");
    expect(byName["rmdir-missing"]).toMatchObject({ codeName: "NotFound" });
    expect(byName["rmdir-missing"]?.message).toContain(
      "The system cannot find the file specified.",
    );
    // The Windows path asked about, not where the simulated node keeps it (issue 34 item 6).
    expect(byName["rmdir-missing"]?.message).toContain(`${kubelet}\\plugins\\no-such-folder`);
    expect(byName["rmdir-missing"]?.message).not.toContain(bin.ready.simulator.root);
    expect(byName["rmdir-missing"]?.message).not.toContain("/proc/self/fd");
    expect(byName["too-large"]).toMatchObject({ codeName: "ResourceExhausted" });
    expect(byName["token-refused"]).toMatchObject({
      codeName: "Unauthenticated",
      message: tokenRefused,
    });
    expect(byName["no-portal"]).toMatchObject({ codeName: "InvalidArgument" });
    expect(byName["unimplemented"]).toMatchObject({ codeName: "Unimplemented" });
    expect(byName["denied"]).toMatchObject({ codeName: "PermissionDenied" });
  }, 60_000);

  it("deadlines of 50 ms to 1 s are served: none is refused as already past", async () => {
    const results = await runGo<Outcome & { deadlineMs: number }>("deadlines", plan("pipe"));
    expect(results.filter((r) => r.deadlineMs >= 50)).toHaveLength(30);
    for (const result of results)
      if (result.deadlineMs >= 50)
        expect(result, `${result.deadlineMs} ms: ${result.message}`).toMatchObject({ code: 0 });
  }, 60_000);

  /** GetDiskState while the node holds Get-Disk (a fault), ended by `how`; then the next call. */
  function hung(how: string): Promise<Outcome[]> {
    writeFileSync(
      join(bin.ready.simulator.dir, "faults.json"),
      JSON.stringify([{ command: "Get-Disk", action: "delay", delayMs: 600_000, times: 1 }]),
    );
    return runGo<Outcome>("hung", plan("pipe"), how);
  }

  it("a deadline ends a hung host call as DEADLINE_EXCEEDED; the next call answers", async () => {
    const [held, next] = await hung("timeout:1500");
    expect(held).toMatchObject({ codeName: "DeadlineExceeded" });
    expect(next).toMatchObject({ codeName: "OK", response: { is_online: true } });
  }, 90_000);

  it("a cancelled context cancels the call on the server; the next call answers", async () => {
    const [held, next] = await hung("cancel");
    expect(held).toMatchObject({ codeName: "Canceled" });
    expect(next).toMatchObject({ codeName: "OK", response: { is_online: true } });
  }, 90_000);

  it("keepalive: a burst of calls (grpc-go's bandwidth pings) and 10 s pings on an idle connection never get a GOAWAY", async () => {
    const [result] = await keepalive;
    expect(result).toMatchObject({ calls: 301, failures: 0, goAways: [] });
    // One connection throughout: it never left READY for another.
    const states = result?.["states"] as string[];
    expect(states.filter((state) => state === "READY")).toHaveLength(1);
    expect(states.at(-1)).toBe("READY");
  }, 60_000);
});

describeWithGo("grpc-go 1.33 clients holding connections at shutdown", () => {
  it("SIGTERM ends the server within the grace period while grpc-go reconnects and a connection never sends its preface", async () => {
    const pwsh = pwshPath();
    if (pwsh === undefined) throw new Error("needs pwsh");
    goClient();
    const bin = await startBin(pwsh, ["--simulate", "--policy", "v1-compatible"]);
    const endpoints = goEndpoints(bin.ready.endpoints);
    const holder = startGo("hold", { endpoints, authority: "pipe" });
    const silent: Socket = connect(bin.ready.endpoints["disk-v1"] ?? "");
    silent.on("error", () => undefined);
    try {
      const first = await holder.lines.next();
      expect(JSON.parse(String(first.value))).toMatchObject({ codeName: "OK" });
      const started = Date.now();
      const exited = bin.stop();
      const code = await Promise.race([
        exited,
        new Promise((resolve) => setTimeout(() => resolve("still running"), 20_000)),
      ]);
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(defaultWireLimits.closeGraceMs + 3_000);
      expect(socketsLeft(bin.socketDir)).toEqual([]);
      // The client saw the server go, and could not reconnect.
      const after = await holder.lines.next();
      expect(JSON.parse(String(after.value))).toMatchObject({ codeName: "Unavailable" });
    } finally {
      silent.destroy();
      holder.child.stdin?.end();
      holder.child.kill();
      bin.child.kill("SIGKILL");
    }
  }, 60_000);
});

// The pipes reach the same HTTP/2 layer through PipeDuplex: the Go client's bytes are bridged
// from a Unix socket onto faked Win32 pipes (test/pipes-fake.ts).
describeWithGo("grpc-go 1.33 over named pipes (Win32 calls faked)", () => {
  it("upstream's pipe target as :authority is served on every pipe", async () => {
    const pwsh = pwshPath();
    if (pwsh === undefined) throw new Error("needs pwsh");
    process.env.CSI_WINSIM_PWSH = pwsh;
    goClient();
    const pipes = new FakePipes();
    const server = await startServer({
      simulate: true,
      policy: "v1-compatible",
      namedPipes: { api: pipes },
      audit: () => undefined,
    });
    const dir = mkdtempSync(join(tmpdir(), "csi-go-bridge-"));
    const bridges: NetServer[] = [];
    try {
      const endpoints: GoEndpoint[] = [];
      for (const api of servedApis) {
        const pipe = server.endpoints[`${api.group}-${api.version}`] ?? "";
        const socket = join(dir, api.endpoint);
        const bridge = createServer((client) => {
          const instance = pipes.dial(pipe);
          client.pipe(instance).pipe(client);
          client.on("error", () => instance.destroy());
          instance.on("error", () => client.destroy());
        });
        await new Promise<void>((resolve) => bridge.listen(socket, resolve));
        bridges.push(bridge);
        endpoints.push({ key: `${api.group}-${api.version}`, name: api.endpoint, socket });
      }
      const results = await runGo<EndpointOutcome>("endpoints", { endpoints, authority: "pipe" });
      expect(results).toHaveLength(servedApis.length);
      for (const result of results)
        expect(result.codeName, `${result.key}: ${result.message}`).toBe(expectedCode(result.key));
    } finally {
      for (const bridge of bridges) bridge.close();
      await server.close();
    }
  }, 120_000);
});
