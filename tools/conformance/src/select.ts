import type { HostKind } from "./host.js";

/** The value `CSI_CONFORMANCE_DISPOSABLE` must have before the suite touches a real Windows host. */
export const disposableConsent = "yes-destroy-this-machine";

/** What the environment asks for, checked before anything touches a machine. */
export interface Selection {
  readonly kind: HostKind;
  /** The PowerShell to run (`CSI_CONFORMANCE_POWERSHELL`); undefined: the host's default. */
  readonly executable: string | undefined;
  /** Windows only: the folder that holds every file the suite creates. */
  readonly scratchRoot: string;
  /** Windows only: the address the iSCSI portal is registered by. */
  readonly portalAddress: string;
  /** Windows only: a running service the suite may stop and start again. */
  readonly stoppableService: string;
}

/** Thrown when the environment does not allow the run; the message says why and what to set. */
export class SelectionError extends Error {
  override readonly name = "SelectionError";
}

function value(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const found = env[name];
  return found === undefined || found.trim() === "" ? undefined : found.trim();
}

/**
 * Reads the suite's settings. A Windows run is destructive (it formats disks, installs the iSCSI
 * Target Server, adds a local user), so it refuses unless the machine is declared disposable.
 */
export function selectHost(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Selection {
  const kind = value(env, "CSI_CONFORMANCE_HOST") ?? "simulator";
  if (kind !== "simulator" && kind !== "windows") {
    throw new SelectionError(
      `CSI_CONFORMANCE_HOST must be "simulator" (default) or "windows", got ${JSON.stringify(kind)}.`,
    );
  }
  if (kind === "windows") {
    if (platform !== "win32") {
      throw new SelectionError(
        `CSI_CONFORMANCE_HOST=windows runs only on Windows; this is ${platform}.`,
      );
    }
    if (value(env, "CSI_CONFORMANCE_DISPOSABLE") !== disposableConsent) {
      throw new SelectionError(
        "Refusing to run on Windows: the suite formats virtual disks, installs the iSCSI Target " +
          "Server feature, creates a local user and an SMB share, and stops and starts a service. " +
          "Run it only on a disposable machine, and say so with " +
          `CSI_CONFORMANCE_DISPOSABLE=${disposableConsent}. ` +
          "For a live node, use the read-only `inspect` command instead.",
      );
    }
  }
  return {
    kind,
    executable: value(env, "CSI_CONFORMANCE_POWERSHELL"),
    scratchRoot: value(env, "CSI_CONFORMANCE_SCRATCH") ?? "C:\\csi-conformance",
    portalAddress: value(env, "CSI_CONFORMANCE_ISCSI_PORTAL") ?? "localhost",
    stoppableService: value(env, "CSI_CONFORMANCE_SERVICE") ?? "Spooler",
  };
}
