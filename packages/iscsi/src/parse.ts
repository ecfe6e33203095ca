import { CsiProxyError } from "@csi-proxy/exec";
import type { Endpoint, ListedSession } from "./attribute.js";
import type {
  HostDiscovery,
  HostListedSession,
  HostPortalTargets,
  HostSessionListing,
  HostTargetDisk,
} from "./host-types.js";
import type { Portal } from "./portal.js";

function unexpected(script: string, what: string): CsiProxyError {
  return new CsiProxyError(`${script} returned an unexpected result: ${what}.`, {
    code: "PARSE_FAILED",
  });
}

function record(value: unknown, script: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw unexpected(script, "expected an object");
  }
  return value as Record<string, unknown>;
}

function list(value: unknown, script: string): unknown[] {
  if (!Array.isArray(value)) throw unexpected(script, "expected an array");
  return value;
}

function text(value: unknown, script: string, field: string): string {
  if (typeof value !== "string") throw unexpected(script, `${field} is not a string`);
  return value;
}

function flag(value: unknown, script: string, field: string): boolean {
  if (typeof value !== "boolean") throw unexpected(script, `${field} is not a boolean`);
  return value;
}

function integer(value: unknown, script: string, field: string): number {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw unexpected(script, `${field} is not a non-negative integer`);
  }
  return value;
}

/** One of the outcome words a script writes. */
export function parseOutcome<const T extends string>(
  value: unknown,
  script: string,
  allowed: readonly T[],
): T {
  if (typeof value === "string" && (allowed as readonly string[]).includes(value))
    return value as T;
  throw unexpected(script, `expected one of ${allowed.join(", ")}`);
}

export function parsePortals(value: unknown): Portal[] {
  const script = "iscsi.listPortals";
  return list(value, script).map((item) => {
    const entry = record(item, script);
    return {
      address: text(entry.address, script, "address"),
      port: integer(entry.port, script, "port"),
    };
  });
}

export function parseDiscovery(value: unknown): HostDiscovery {
  const script = "iscsi.discover";
  const entry = record(value, script);
  return {
    portalFound: flag(entry.portalFound, script, "portalFound"),
    iqns: list(entry.iqns, script).map((iqn) => text(iqn, script, "iqns[]")),
  };
}

/**
 * `iscsi.disconnect`: how many sessions it logged out, or (`loggedOut: null`, nothing changed)
 * the target's sessions with their connections and the other portals offering it, for Node to
 * attribute.
 */
export function parseDisconnect(
  value: unknown,
):
  { loggedOut: number } | { loggedOut: null; sessions: ListedSession[]; otherPortals: Endpoint[] } {
  const script = "iscsi.disconnect";
  const top = record(value, script);
  if (top.loggedOut !== null) {
    return { loggedOut: integer(top.loggedOut, script, "loggedOut") };
  }
  const endpoints = (items: unknown, field: string) => endpointsOf(items, script, field);
  return {
    loggedOut: null,
    sessions: list(top.sessions, script).map((item) => {
      const entry = record(item, script);
      return {
        sessionIdentifier: text(entry.sessionIdentifier, script, "sessionIdentifier"),
        targetNodeAddress: text(entry.targetNodeAddress, script, "targetNodeAddress"),
        isPersistent: flag(entry.isPersistent, script, "isPersistent"),
        connections: endpoints(entry.connections, "connection"),
      };
    }),
    otherPortals: endpoints(top.otherPortals, "portal"),
  };
}

/** `iscsi.targetDisks`: each disk's number and its LUN, read from `... : LUN n` in its Location. */
export function parseTargetDisks(value: unknown): HostTargetDisk[] {
  const script = "iscsi.targetDisks";
  return list(value, script).map((item) => {
    const entry = record(item, script);
    const location = typeof entry.location === "string" ? entry.location : "";
    const lun = /(?:^|:)\s*LUN\s+(\d+)\s*$/i.exec(location)?.[1];
    return {
      diskNumber: integer(entry.number, script, "disk number"),
      lun: lun === undefined ? null : Number(lun),
    };
  });
}

function endpointsOf(items: unknown, script: string, field: string): Endpoint[] {
  return list(items, script).map((item) => {
    const entry = record(item, script);
    return {
      address: text(entry.address, script, `${field} address`),
      port: integer(entry.port, script, `${field} port`),
    };
  });
}

/** `iscsi.listSessions`: every session's target, connections and disks, and the portals. */
export function parseSessionListing(value: unknown): HostSessionListing {
  const script = "iscsi.listSessions";
  const top = record(value, script);
  const sessions = list(top.sessions, script).map((item): HostListedSession => {
    const entry = record(item, script);
    return {
      sessionIdentifier: text(entry.sessionIdentifier, script, "sessionIdentifier"),
      targetNodeAddress: text(entry.targetNodeAddress, script, "targetNodeAddress"),
      connections: endpointsOf(entry.connections, script, "connection"),
      disks: list(entry.disks, script).map((disk) => {
        const d = record(disk, script);
        return {
          diskNumber: integer(d.number, script, "disk number"),
          lun: integer(d.lun, script, "disk lun"),
        };
      }),
    };
  });
  return { sessions, portals: endpointsOf(top.portals, script, "portal") };
}

/** `iscsi.listPortalTargets`: each registered portal and the IQNs discovery found on it. */
export function parsePortalTargets(value: unknown): HostPortalTargets[] {
  const script = "iscsi.listPortalTargets";
  return list(value, script).map((item) => {
    const entry = record(item, script);
    return {
      portal: {
        address: text(entry.address, script, "address"),
        port: integer(entry.port, script, "port"),
      },
      iqns: list(entry.iqns, script).map((iqn) => text(iqn, script, "iqns[]")),
    };
  });
}
