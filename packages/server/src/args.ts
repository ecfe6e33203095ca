import { parseArgs } from "node:util";
import { isEndpointSetName } from "./endpoints.js";
import type { TokenSettings } from "./identity.js";
import type { Rotation } from "./log-file.js";
import { KlogFlagError, takeKlogFlags, type LogSettings } from "./logging/klog-flags.js";
import type { ServerOptions } from "./server.js";

/** What the command line asks for. */
export type Command =
  | {
      /** `--help`: print the usage and exit. */
      readonly help: true;
    }
  | {
      readonly help: false;
      /** `--version`: print the version and exit. */
      readonly version: true;
    }
  | {
      /** Serve. */
      readonly help: false;
      readonly version?: undefined;
      /** What to serve, from the flags. */
      readonly options: ServerOptions;
      /** `--audit-log`: the file the audit log is appended to (stderr when absent). */
      readonly auditLog?: string;
      /** `--audit-log-maxsize`, `--audit-log-maxbackup`: when the audit file rotates, how many kept. */
      readonly auditRotation: Rotation;
      /** Upstream's klog flags: where the server's log goes, and how much of it. */
      readonly log: LogSettings;
      /** `--windows-service`: run under the Service Control Manager as `csiproxy`. */
      readonly windowsService?: boolean;
    };

/** A command line the bin cannot run; its message says why. */
export class UsageError extends Error {}

/** The bin's `--help` text. */
export const usage = `Usage: csi-proxy-server --policy FILE [--socket-dir DIR] [options]

Serves upstream csi-proxy's v1 gRPC API (one endpoint per group-version, named as
upstream's pipes: csi-proxy-disk-v1, ...) through csi-proxy for TypeScript. On Windows
the endpoints are named pipes (\\\\.\\pipe\\csi-proxy-...) that only SYSTEM and
Administrators may open; elsewhere they are Unix sockets in --socket-dir.

Options:
  --socket-dir DIR        folder for the endpoints' Unix sockets (required off Windows); made
                          0700 if missing, refused if it is a link or others may write it
  --pipe-sid SID          on Windows, also admit this SID to the pipes (repeatable; never
                          Everyone, Anonymous or Authenticated Users)
  --endpoint-set NAME     serve all endpoints for this set (repeatable): pipes
                          \\\\.\\pipe\\csi-proxy-NAME-<group>-<version>, sockets in
                          --socket-dir/NAME; rules name it ({"endpointSet": "NAME"} callers).
                          Mount each driver's own set into its pods. Without it: one set,
                          "default", at upstream's names; with it, only the sets given
                          ("--endpoint-set default" serves upstream's names too)
  --socket-mode MODE      0600 (default: the owner only) or 0660 (the owner's group too)
  --simulate              serve a simulated Windows node (@csi-proxy/winsim); C:\\ is its root
  --simulate-scenario FILE  the simulated node from a winsim ScenarioSpec (JSON); implies --simulate
  --kubelet-path PATH     kubelet's folder, always a working dir (default C:\\var\\lib\\kubelet)
  --working-dir PATH      another prefix for filesystem paths and SMB local paths (repeatable)
  --powershell-pool N     PowerShell processes the calls share, 1 to 64 (default 4): a slow
                          call (a format, a login) holds one, the others keep answering
  --require-privacy[=BOOL] SMB mappings require encryption (default true)
  --policy FILE           who may call what (JSON, schema in the package); required:
                          every call is denied unless a rule grants it. "v1-compatible"
                          reproduces upstream v1's rules (with a warning)
  --metrics-bind-address ADDR  serve upstream's Prometheus gRPC metrics at http://ADDR/metrics
                          (:9090, 127.0.0.1:9090; plain HTTP, no authentication, counts only)
  --windows-service       run under the Windows Service Control Manager as csiproxy (install
                          with sc.exe create, as upstream's); output goes to
                          %ProgramData%\\csi-proxy-server\\service.log
  --audit-log FILE        append the audit log's JSON lines here (default: stderr); its folder
                          is made (0700) if missing; SIGHUP reopens it
  --audit-log-maxsize MB  rotate the audit file at this size (default 100; 0: never)
  --audit-log-maxbackup N rotated audit files kept, FILE.1 to FILE.N (default 5)
  --jwks-file FILE        verify callers' bearer tokens (Kubernetes projected service-account
                          tokens) against this JWKS; without it or --jwks-url, tokens are refused
  --jwks-url URL          the same, fetched from a URL (and cached)
  --token-audience AUD    the audience tokens must be for (default csi-proxy)
  --token-issuer ISS      the issuer tokens must come from (default: any)
  --version               print the version and exit
  -h, --help              this text

Upstream's klog flags set the server's own log (JSON lines: one per failed call, and with -v=2
one per call): -v, -logtostderr (default true: stderr), -log_file, -log_dir,
-log_file_max_size (MB, default 1800), -alsologtostderr, -stderrthreshold (default ERROR),
-alsologtostderrthreshold, -legacy_stderr_threshold_behavior; -vmodule, -log_backtrace_at,
-add_dir_header, -skip_headers, -skip_log_headers and -one_output are accepted, without effect.

Upstream's single-dash spellings (-kubelet-path, -require-privacy=false) are accepted too.
On start it prints one JSON line, {"ready":true,"endpoints":{...},...}; SIGTERM or SIGINT
stops it and removes the sockets.`;

// Go's flag package takes -name and --name alike, and bool flags as -name=false.
function normalize(argv: readonly string[]): string[] {
  return argv.map((arg) => {
    const long = /^-[a-z][a-z-]+(=.*)?$/.test(arg) ? `-${arg}` : arg;
    const privacy = /^--require-privacy=(.*)$/.exec(long);
    if (privacy === null) return long;
    const value = (privacy[1] ?? "").toLowerCase();
    if (["true", "1", "t"].includes(value)) return "--require-privacy";
    if (["false", "0", "f"].includes(value)) return "--no-require-privacy";
    throw new UsageError(
      `--require-privacy takes true or false, not ${JSON.stringify(privacy[1])}.`,
    );
  });
}

/** The default of `--token-audience`: what a projected token for this server is requested for. */
export const defaultTokenAudience = "csi-proxy";

function tokenSettings(values: Readonly<Record<string, unknown>>): TokenSettings | undefined {
  const file = values["jwks-file"] as string | undefined;
  const url = values["jwks-url"] as string | undefined;
  const audience = values["token-audience"] as string | undefined;
  const issuer = values["token-issuer"] as string | undefined;
  if (file !== undefined && url !== undefined)
    throw new UsageError("Give --jwks-file or --jwks-url, not both.");
  if (file === undefined && url === undefined) {
    if (audience !== undefined || issuer !== undefined) {
      throw new UsageError("--token-audience and --token-issuer need --jwks-file or --jwks-url.");
    }
    return undefined;
  }
  if (url !== undefined && !/^https?:\/\//.test(url))
    throw new UsageError(`--jwks-url must be an http(s) URL, not ${url}.`);
  return {
    audience: audience ?? defaultTokenAudience,
    ...(file === undefined ? {} : { jwksFile: file }),
    ...(url === undefined ? {} : { jwksUrl: url }),
    ...(issuer === undefined ? {} : { issuer }),
  };
}

/** The defaults of `--audit-log-maxsize` (MB) and `--audit-log-maxbackup`: 600 MB at most. */
export const defaultAuditRotation = { maxSizeMB: 100, keep: 5 } as const;

function auditRotation(
  values: Readonly<Record<string, unknown>>,
  file: string | undefined,
): Rotation {
  const size = values["audit-log-maxsize"] as string | undefined;
  const keep = values["audit-log-maxbackup"] as string | undefined;
  if (file === undefined && (size !== undefined || keep !== undefined))
    throw new UsageError("--audit-log-maxsize and --audit-log-maxbackup need --audit-log.");
  const count = (flag: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!/^\d{1,7}$/.test(value))
      throw new UsageError(`${flag} is a whole number, not ${JSON.stringify(value)}.`);
    return Number(value);
  };
  const megabytes = count("--audit-log-maxsize", size, defaultAuditRotation.maxSizeMB);
  return {
    maxBytes: megabytes * 1024 * 1024,
    keep: count("--audit-log-maxbackup", keep, defaultAuditRotation.keep),
  };
}

/** Parses the bin's arguments; throws {@link UsageError} with a one-line reason. */
export function parseCommand(
  argv: readonly string[],
  platform: NodeJS.Platform = process.platform,
): Command {
  let values;
  let klog;
  try {
    klog = takeKlogFlags(argv);
  } catch (error) {
    if (error instanceof KlogFlagError) throw new UsageError(error.message);
    throw error;
  }
  try {
    ({ values } = parseArgs({
      args: normalize(klog.rest),
      strict: true,
      allowPositionals: false,
      options: {
        "socket-dir": { type: "string" },
        "pipe-sid": { type: "string", multiple: true },
        "socket-mode": { type: "string" },
        "endpoint-set": { type: "string", multiple: true },
        simulate: { type: "boolean" },
        "simulate-scenario": { type: "string" },
        "kubelet-path": { type: "string" },
        "working-dir": { type: "string", multiple: true },
        "powershell-pool": { type: "string" },
        "require-privacy": { type: "boolean" },
        "no-require-privacy": { type: "boolean" },
        "metrics-bind-address": { type: "string" },
        "windows-service": { type: "boolean" },
        policy: { type: "string" },
        "audit-log": { type: "string" },
        "audit-log-maxsize": { type: "string" },
        "audit-log-maxbackup": { type: "string" },
        "jwks-file": { type: "string" },
        "jwks-url": { type: "string" },
        "token-audience": { type: "string" },
        "token-issuer": { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
    }));
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help === true) return { help: true };
  if (values.version === true) return { help: false, version: true };
  const windowsService = values["windows-service"] === true;
  if (windowsService && platform !== "win32")
    throw new UsageError("--windows-service runs under the Windows service manager only.");
  const socketDir = values["socket-dir"];
  const pipeSids = values["pipe-sid"];
  if (platform === "win32") {
    if (socketDir !== undefined)
      throw new UsageError(
        "--socket-dir is for Unix sockets; on Windows the endpoints are named pipes.",
      );
  } else {
    if (socketDir === undefined || socketDir === "")
      throw new UsageError("--socket-dir is required.");
    if (pipeSids !== undefined)
      throw new UsageError("--pipe-sid applies to Windows named pipes only.");
  }
  const mode = values["socket-mode"];
  if (mode !== undefined && mode !== "0600" && mode !== "0660") {
    throw new UsageError(`--socket-mode is 0600 or 0660, not ${JSON.stringify(mode)}.`);
  }
  const policy = values.policy;
  if (policy === undefined || policy === "") {
    throw new UsageError(
      "--policy is required (a policy file, or v1-compatible for upstream v1's rules): without one every call would be denied.",
    );
  }
  const tokens = tokenSettings(values);
  const endpointSets = values["endpoint-set"];
  for (const set of endpointSets ?? []) {
    if (!isEndpointSetName(set))
      throw new UsageError(
        `--endpoint-set ${JSON.stringify(set)}: 1 to 40 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen.`,
      );
  }
  if (endpointSets !== undefined && new Set(endpointSets).size !== endpointSets.length)
    throw new UsageError("--endpoint-set names a set twice.");
  const pool = values["powershell-pool"];
  if (pool !== undefined && !/^(?:[1-9]|[1-5]\d|6[0-4])$/.test(pool))
    throw new UsageError(
      `--powershell-pool is a whole number from 1 to 64, not ${JSON.stringify(pool)}.`,
    );
  const kubeletPath = values["kubelet-path"];
  const scenarioFile = values["simulate-scenario"];
  const auditLog = values["audit-log"];
  const metricsBindAddress = values["metrics-bind-address"];
  return {
    help: false,
    options: {
      ...(socketDir === undefined ? {} : { socketDir }),
      ...(pipeSids === undefined ? {} : { namedPipes: { sids: pipeSids } }),
      ...(endpointSets === undefined ? {} : { endpointSets }),
      socketMode: mode === "0660" ? 0o660 : 0o600,
      simulate: values.simulate === true,
      ...(kubeletPath === undefined ? {} : { kubeletPath }),
      ...(scenarioFile === undefined ? {} : { scenarioFile }),
      workingDirs: values["working-dir"] ?? [],
      ...(pool === undefined ? {} : { powershellPool: Number(pool) }),
      requirePrivacy: values["no-require-privacy"] !== true,
      policy,
      ...(tokens === undefined ? {} : { tokens }),
      ...(metricsBindAddress === undefined || metricsBindAddress === ""
        ? {}
        : { metricsBindAddress }),
    },
    ...(auditLog === undefined ? {} : { auditLog }),
    auditRotation: auditRotation(values, auditLog),
    log: klog.settings,
    ...(windowsService ? { windowsService } : {}),
  };
}
