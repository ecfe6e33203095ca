import {
  Server,
  status,
  type ServerUnaryCall,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { callOptionsFromGrpcCall, createRedactor, CsiProxyError } from "@csi-proxy/exec";
import type { AuditSink } from "./audit.js";
import { AuditTrail } from "./audit-trail.js";
import { observeCall, type CallObservers, type CallSite } from "./call-log.js";
import { silentLogger, type ServerLogger } from "./logging/logger.js";
import { defaultEndpointSet, isEndpointSetName, servedApis, type ServedApi } from "./endpoints.js";
import type { HandlerContext, Message } from "./handlers/context.js";
import { guarded, secretsOf, type GuardContext, type GuardedRpc } from "./guard.js";
import { handlersFor } from "./handlers/index.js";
import { tokenIdentifier, UnauthenticatedError, type TokenSettings } from "./identity.js";
import { simulatedNode, windowsNode, type ServedNode } from "./node.js";
import { windowsPath } from "./paths.js";
import { Authorizer } from "./policy/authorize.js";
import { loadPolicy } from "./policy/load.js";
import { podVolumeOwner } from "./policy/pod-volumes.js";
import { createPathResolver } from "./policy/resolve.js";
import { serviceDefinition } from "./proto.js";
import { pipeSddl } from "./pipes/sddl.js";
import {
  listenOnPipes,
  listenOnSockets,
  type EndpointServer,
  type Listening,
  type NamedPipeOptions,
} from "./transport.js";
import type { MetricsListener } from "./metrics/listener.js";
import { ServerMetrics } from "./metrics/registry.js";
import { serveObservability, servedRpcs } from "./metrics/serve.js";
import { cancelledUntilAnswered } from "./cancel-until-answered.js";
import { grpcStatusOf } from "./status.js";
import { simulatedDetails } from "./simulated-details.js";
import { guardedPeer, peerHeader } from "./wire/peer-header.js";
import { detailsOf } from "./upstream-text.js";
import {
  boundDetails,
  defaultWireLimits,
  grpcServerOptions,
  type WireLimits,
} from "./wire-limits.js";

/** Options of {@link startServer}; the bin's flags map onto them one to one. */
export interface ServerOptions {
  /** The folder for the endpoints' Unix sockets (`--socket-dir`); needed off Windows. */
  readonly socketDir?: string;
  /**
   * Serve Windows named pipes (`\\.\pipe\csi-proxy-<group>-<version>`) with a DACL of SYSTEM and
   * Administrators; the default on Windows. `sids` (`--pipe-sid`) admits more.
   */
  readonly namedPipes?: NamedPipeOptions;
  /**
   * `--endpoint-set`: serve every endpoint once per set, so a deployment can mount each driver's
   * own set into its pods and policy rules can name the set (`{ "endpointSet": ... }` callers).
   * `default` is upstream's names; only it when absent.
   */
  readonly endpointSets?: readonly string[];
  /** The sockets' mode: owner-only 0o600 (default) or 0o660 for the owner's group. */
  readonly socketMode?: 0o600 | 0o660;
  /** `--simulate`: serve the simulated node of `@csi-proxy/winsim` instead of this machine. */
  readonly simulate?: boolean;
  /** `--simulate-scenario`: a JSON `ScenarioSpec` (winsim) for the simulated node; implies `simulate`. */
  readonly scenarioFile?: string;
  /** `--kubelet-path`, default `C:\var\lib\kubelet`: always one of the working dirs. */
  readonly kubeletPath?: string;
  /** `--working-dir`: more prefixes filesystem paths and SMB local paths must lie in. */
  readonly workingDirs?: readonly string[];
  /**
   * `--powershell-pool`: the PowerShell processes calls share (1 to 64, default
   * {@link defaultPowershellPool}), so one slow call does not hold up every driver's others.
   */
  readonly powershellPool?: number;
  /** `--require-privacy` (default true): SMB mappings require encryption. */
  readonly requirePrivacy?: boolean;
  /** `--policy`: a policy file (JSON, `schema/policy.schema.json`) or `v1-compatible`. Required: default deny. */
  readonly policy: string;
  /**
   * Where the audit log's JSON lines go (`--audit-log`); stderr by default. A line it cannot take
   * (it throws) refuses its call with UNAVAILABLE: nothing runs without its line.
   */
  readonly audit?: AuditSink;
  /** The server's own log: a line per call (klog's `-v` sets which), start, stop; none by default. */
  readonly log?: ServerLogger;
  /** How callers' bearer tokens are verified; without it, a call with a token is refused. */
  readonly tokens?: TokenSettings;
  /** `--metrics-bind-address` (`:9090`, `127.0.0.1:9090`): serve upstream's gRPC metrics at `/metrics`. */
  readonly metricsBindAddress?: string;
  /** What a connection may hold before it is authenticated; {@link defaultWireLimits} where not given. */
  readonly wireLimits?: Partial<WireLimits>;
}

/** Where a simulated node lives (`--simulate`). */
export interface SimulatorFolders {
  /** The simulator's state folder: `state.json`, `faults.json`, `calls.jsonl`. */
  readonly dir: string;
  /** The folder drive C: maps onto. */
  readonly root: string;
}

/** A started server. */
export interface RunningServer {
  /**
   * Socket path (or pipe name) per endpoint, keyed `<group>-<version>` (`disk-v1`, ...) in the
   * default set and `<set>/<group>-<version>` in a named one.
   */
  readonly endpoints: Readonly<Record<string, string>>;
  /** The endpoint sets served. */
  readonly endpointSets: readonly string[];
  /** The kubelet path, normalised. */
  readonly kubeletPath: string;
  /** The working dirs in force (`--working-dir`..., then the kubelet path). */
  readonly workingDirs: readonly string[];
  /** The simulated node's folders, with `--simulate`. */
  readonly simulator?: SimulatorFolders | undefined;
  /** Where `/metrics` is served (`host:port`), with `metricsBindAddress`. */
  readonly metricsAddress?: string | undefined;
  /** The policy's warning, when it is wider than it should be (`v1-compatible`). */
  readonly policyWarning?: string | undefined;
  /** Stops serving (in-flight calls are cancelled after a grace period), removes the sockets, ends the node. */
  close(): Promise<void>;
}

/**
 * The default of `--powershell-pool`. Upstream v1 started a PowerShell per call, unbounded; four
 * warm processes keep a format or a login from holding up the node's other calls, at the memory
 * of four PowerShell processes (BENCHMARKS.md, memory per process).
 */
export const defaultPowershellPool = 4;

/** The default of `--kubelet-path`, as upstream. */
export const defaultKubeletPath = "C:\\var\\lib\\kubelet";

/** All a caller whose token was refused learns; the audit log says why. */
export const tokenRefused = "The call's credentials were refused.";

/** The call's deadline in ms since the epoch; Infinity when it has none. */
function deadlineOf(call: ServerUnaryCall<Message, Message>): number {
  const deadline = call.getDeadline();
  return deadline instanceof Date ? deadline.getTime() : deadline;
}

/**
 * The time kept back from the library's work for the answer to reach the client: 250 ms, or a
 * quarter of a shorter deadline, so a short deadline still leaves the library most of itself.
 */
function answerMarginMs(remainingMs: number): number {
  return Math.min(250, remainingMs / 4);
}

function unary(
  api: ServedApi,
  site: CallSite,
  handler: GuardedRpc,
  observers: CallObservers,
  hostDetails: (details: string) => string,
) {
  const { rpc } = site;
  return (call: ServerUnaryCall<Message, Message>, callback: sendUnaryData<Message>): void => {
    // The peer the transport read (wire/peer-header.ts): grpc-js sees only the guard's stream.
    const peer = guardedPeer(call.metadata.get(peerHeader)) ?? call.getPeer();
    const observed = observeCall(site, peer, observers);
    const fail = (code: status, details: string) => {
      // A caller's long path echoed in full would not fit in the trailers (wire-limits.ts).
      const bounded = boundDetails(details);
      observed.end(code, bounded);
      callback({ code, details: bounded });
    };
    // The client's own deadline decides, not the one less the margin (a 250 ms one was refused).
    const remainingMs = deadlineOf(call) - Date.now();
    if (remainingMs <= 0) {
      fail(status.DEADLINE_EXCEEDED, `${rpc}: the deadline had passed before the call started.`);
      return;
    }
    const served = cancelledUntilAnswered(call);
    const options = callOptionsFromGrpcCall(served.call, {
      marginMs: answerMarginMs(remainingMs),
    });
    const request = call.request;
    const authorization = call.metadata.get("authorization");
    handler(authorization, request, options, peer, observed.trace).then(
      (response) => {
        served.answered();
        observed.end(status.OK);
        callback(null, response);
      },
      (error: unknown) => {
        served.answered();
        // A request's secrets never appear in a status's details, whatever the library says.
        const redact = createRedactor(secretsOf(request));
        // Why a token was refused (expired, forged, wrong audience) is for the audit log only.
        if (error instanceof UnauthenticatedError) fail(status.UNAUTHENTICATED, tokenRefused);
        else fail(grpcStatusOf(error), redact(hostDetails(detailsOf(api.group, rpc, error))));
      },
    );
  };
}

function implementation(
  api: ServedApi,
  endpointSet: string,
  context: HandlerContext,
  guard: GuardContext,
  observers: CallObservers,
  hostDetails: (details: string) => string,
): UntypedServiceImplementation {
  const handlers = handlersFor(api, context);
  const out: UntypedServiceImplementation = {};
  for (const rpc of Object.keys(serviceDefinition(api))) {
    const handler = handlers[rpc];
    if (handler === undefined) throw new Error(`${api.endpoint}: no handler for ${rpc}.`);
    const where = { endpoint: `${api.group}-${api.version}`, endpointSet };
    const site = {
      ...where,
      service: `${api.version}.${api.service}`,
      rpc,
      method: `${api.group}.${rpc}`,
    };
    out[rpc] = unary(
      api,
      site,
      guarded(where, site.method, handler, guard),
      observers,
      hostDetails,
    );
  }
  return out;
}

/** Every RPC the server serves, as `group.Method`. */
export function servedMethods(): Set<string> {
  return new Set(
    servedApis.flatMap((api) =>
      Object.keys(serviceDefinition(api)).map((rpc) => `${api.group}.${rpc}`),
    ),
  );
}

function refuseMissingHost(simulate: boolean): void {
  if (!simulate && process.platform !== "win32") {
    throw new CsiProxyError(
      `There is no Windows storage stack on ${process.platform}: pass --simulate to serve the simulated node.`,
      { code: "UNSUPPORTED" },
    );
  }
}

function checkEndpointSets(sets: readonly string[] | undefined): readonly string[] {
  if (sets === undefined || sets.length === 0) return [defaultEndpointSet];
  for (const set of sets) {
    if (!isEndpointSetName(set)) {
      throw new CsiProxyError(
        `Endpoint set ${JSON.stringify(set)}: 1 to 40 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen.`,
        { code: "INVALID_ARGUMENT" },
      );
    }
  }
  if (new Set(sets).size !== sets.length)
    throw new CsiProxyError("An endpoint set is named twice.", { code: "INVALID_ARGUMENT" });
  return sets;
}

function shutdown(server: Server, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(force);
      resolve();
    });
  });
}

/**
 * Starts one gRPC server per served group-version, each on its own endpoint named as upstream's
 * pipe (a named pipe on Windows, a Unix socket in `socketDir` elsewhere), delegating every RPC to
 * the library groups.
 * @example
 * ```ts
 * const server = await startServer({
 *   socketDir: "/run/csi-proxy",
 *   simulate: true,
 *   policy: "/etc/csi-proxy/policy.json",
 * });
 * console.log(server.endpoints["disk-v1"]); // "/run/csi-proxy/csi-proxy-disk-v1"
 * await server.close();
 * ```
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const simulate = options.simulate === true || options.scenarioFile !== undefined;
  refuseMissingHost(simulate);
  const pipes = options.namedPipes ?? (process.platform === "win32" ? {} : undefined);
  // A SID that would open the pipes too wide is refused before the node is touched.
  if (pipes !== undefined) pipeSddl(pipes.sids ?? []);
  const endpointSets = checkEndpointSets(options.endpointSets);
  const limits: WireLimits = { ...defaultWireLimits, ...options.wireLimits };
  // Checked by the exec core as its poolSize (1 to 64, INVALID_ARGUMENT) when the node starts.
  const pool = options.powershellPool ?? defaultPowershellPool;
  const kubeletPath = windowsPath(options.kubeletPath ?? defaultKubeletPath);
  const workingDirs = [...(options.workingDirs ?? []).map(windowsPath), kubeletPath];
  // Checked before anything starts: a bad policy is a start failure, never a silent allow.
  const policy = loadPolicy(options.policy, {
    kubeletPath,
    workingDirs,
    methods: servedMethods(),
    endpointSets,
  });
  const identify = tokenIdentifier(options.tokens);
  if (policy.namesServiceAccounts && options.tokens === undefined) {
    throw new CsiProxyError(
      `Policy ${policy.source} has rules for service accounts, but no --jwks-file or --jwks-url to verify their tokens.`,
      { code: "INVALID_ARGUMENT" },
    );
  }
  const node: ServedNode = simulate
    ? await simulatedNode(workingDirs, options.scenarioFile, pool)
    : windowsNode(workingDirs, pool);
  const context: HandlerContext = {
    groups: node.groups,
    paths: node.paths,
    workingDirs,
    requirePrivacy: options.requirePrivacy ?? true,
  };
  const log = options.log ?? silentLogger;
  const trail = new AuditTrail(options.audit ?? ((line) => process.stderr.write(`${line}\n`)), log);
  const guard: GuardContext = {
    policy,
    authorizer: new Authorizer(
      node.groups,
      createPathResolver(node.fsHost, node.paths),
      podVolumeOwner(node.paths),
      node.paths,
    ),
    identify,
    audit: trail.write,
  };
  const metrics =
    options.metricsBindAddress === undefined
      ? undefined
      : new ServerMetrics(servedRpcs(endpointSets));
  const observers: CallObservers = { log, audit: trail.write, metrics };
  // The simulated node's host paths are the simulator's; a caller asked about Windows paths.
  const simulator = node.simulator;
  const hostDetails =
    simulator === undefined
      ? (details: string) => details
      : (details: string) => simulatedDetails(details, simulator.root);
  // One gRPC server per endpoint: which set a call came in on is known by where it landed.
  const servers: EndpointServer[] = endpointSets.flatMap((endpointSet) =>
    servedApis.map((api) => {
      const server = new Server(grpcServerOptions(limits));
      server.addService(
        serviceDefinition(api),
        implementation(api, endpointSet, context, guard, observers, hostDetails),
      );
      return { api, endpointSet, server };
    }),
  );
  let metricsListener: MetricsListener | undefined;
  let listening: Listening | undefined;
  try {
    if (metrics !== undefined && options.metricsBindAddress !== undefined) {
      const endpoints = () => listening?.endpoints;
      const observed = { metrics, endpoints, shell: node.shell, trail, log };
      metricsListener = await serveObservability(options.metricsBindAddress, observed);
    }
    listening =
      pipes === undefined
        ? await listenOnSockets(servers, options.socketDir, options.socketMode ?? 0o600, limits)
        : await listenOnPipes(servers, pipes, limits);
  } catch (error) {
    for (const { server } of servers) server.forceShutdown();
    await metricsListener?.close();
    await node.close();
    throw error;
  }
  let closing: Promise<void> | undefined;
  const served = listening;
  return {
    endpoints: served.endpoints,
    endpointSets,
    kubeletPath,
    workingDirs,
    simulator: node.simulator,
    metricsAddress: metricsListener?.address,
    policyWarning: policy.warning,
    close() {
      closing ??= (async () => {
        // Turned away first: a client reconnecting after the GOAWAY (grpc-go does at once) must
        // not land in a server that has shut down; then every connection left is ended.
        served.stop();
        try {
          await Promise.all(servers.map(({ server }) => shutdown(server, limits.closeGraceMs)));
        } finally {
          await served.close();
          await metricsListener?.close();
          await node.close();
        }
      })();
      return closing;
    },
  };
}
