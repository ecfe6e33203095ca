import { isIPv4, isIPv6 } from "node:net";
import { invalidArgument } from "@csi-proxy/exec";
import { describe, requestObject } from "./validate.js";

/** The iSCSI well-known port, used when a request gives 0 or no port (as upstream). */
export const defaultIscsiPort = 3260;

/** A validated portal: the address as the host should see it and a port from 1 to 65535. */
export interface Portal {
  /** Host name or IP address (IPv6 without brackets). */
  readonly address: string;
  /** TCP port, 1 to 65535. */
  readonly port: number;
}

const maxHostName = 253;
// RFC 1123 labels: letters, digits and inner hyphens, up to 63 characters each.
const hostLabel = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/** Validates a `targetPortal` field and applies port 0 → 3260; throws `INVALID_ARGUMENT`. */
export function portalField(request: Record<string, unknown>, method: string): Portal {
  const value = request.targetPortal;
  if (value === undefined || value === null) {
    throw invalidArgument(`${method}: targetPortal is required.`);
  }
  const portal = requestObject(value, `${method}: targetPortal`);
  return {
    address: portalAddress(portal.targetAddress, method),
    port: portalPort(portal.targetPort, method),
  };
}

/**
 * A host name, IPv4 address or IPv6 address (brackets removed). Anything else (spaces, control
 * characters, URLs, `host:port`) is rejected rather than handed to the initiator.
 */
export function portalAddress(value: unknown, method: string): string {
  if (typeof value !== "string" || value === "") {
    throw invalidArgument(
      `${method}: targetPortal.targetAddress must be a non-empty string, got ${describe(value)}.`,
    );
  }
  const unbracketed = /^\[(.*)\]$/.exec(value)?.[1];
  if (unbracketed !== undefined) {
    if (isIPv6(unbracketed)) return unbracketed;
  } else if (isIPv4(value) || isIPv6(value) || isHostName(value)) {
    return value;
  }
  throw invalidArgument(
    `${method}: targetPortal.targetAddress must be a host name or an IP address, got ${describe(value)}.`,
  );
}

function isHostName(value: string): boolean {
  const name = value.endsWith(".") ? value.slice(0, -1) : value;
  if (name === "" || name.length > maxHostName) return false;
  const labels = name.split(".");
  // An all-numeric dotted name is a malformed IPv4 address, not a host name.
  if (labels.every((label) => /^\d+$/.test(label))) return false;
  return labels.every((label) => hostLabel.test(label));
}

/** 0 or absent → 3260; otherwise an integer from 1 to 65535 (the cmdlets take a UInt16). */
export function portalPort(value: unknown, method: string): number {
  if (value === undefined || value === 0) return defaultIscsiPort;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > 65535) {
    throw invalidArgument(
      `${method}: targetPortal.targetPort must be an integer from 0 to 65535 (0 means ${defaultIscsiPort}), got ${describe(value)}.`,
    );
  }
  return value;
}

/** The lock key of a portal: host names and IPv6 hex digits compare case-insensitively. */
export function portalKey(portal: Portal): string {
  return `portal:${portal.address.toLowerCase()}:${portal.port}`;
}
