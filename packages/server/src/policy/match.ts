import { foldWindowsName, invalidArgument, normalizePath } from "@csi-proxy/exec";
import { defaultIscsiPort } from "@csi-proxy/iscsi";
import { parseRemotePath } from "@csi-proxy/smb";

/** A Windows folder pattern, split into folded segments; `*` matches any one segment. */
export type PathPattern = readonly string[];

/** Parses a policy path (`C:\var\lib\kubelet\pods\*\volumes`) by the library's path rules. */
export function pathPattern(text: string): PathPattern {
  const segments = text.split("\\");
  // `*` is no legal name character: check the path with a stand-in, keep the wildcard.
  const checked = normalizePath(segments.map((s) => (s === "*" ? "x" : s)).join("\\"), {
    style: "windows",
  }).split("\\");
  return checked.map((segment, i) => (segments[i] === "*" ? "*" : foldWindowsName(segment)));
}

/** Whether a normalised Windows path is the pattern's folder or inside it. */
export function pathMatches(path: string, pattern: PathPattern): boolean {
  const segments = foldWindowsName(path)
    .split("\\")
    .filter((s) => s !== "");
  if (segments.length < pattern.length) return false;
  return pattern.every((p, i) => p === "*" || p === segments[i]);
}

/** A case-insensitive glob where `*` matches any run of characters. */
export function glob(pattern: string): RegExp {
  const body = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${body}$`, "i");
}

/** An SMB prefix: the remote path with `\` separators, folded for comparison. */
export function smbPrefix(text: string): string {
  return parseRemotePath(text).path.toLowerCase();
}

/** Whether a remote path lies in a prefix, on a separator boundary. */
export function smbMatches(remotePath: string, prefix: string): boolean {
  const path = parseRemotePath(remotePath).path.toLowerCase();
  return path === prefix || path.startsWith(`${prefix}\\`);
}

/** A portal as the policy and the requests name it: address (folded) and port. */
export interface PortalKey {
  readonly address: string;
  readonly port: number;
}

/** Parses `address`, `address:port` or `[v6]:port` (port 3260 when absent). */
export function portalKey(text: string): PortalKey {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:[\]]+)(?::(\d+))?$/.exec(text);
  const match = bracketed ?? (text.split(":").length > 2 ? /^(.+)()$/.exec(text) : plain);
  const address = match?.[1];
  const port = match?.[2] === undefined || match[2] === "" ? defaultIscsiPort : Number(match[2]);
  if (address === undefined || !Number.isInteger(port) || port < 1 || port > 65_535) {
    throw invalidArgument(`Not a target portal (address[:port]): ${text}`);
  }
  return { address: address.toLowerCase(), port };
}

/** Whether two portals are the same. */
export function samePortal(a: PortalKey, b: PortalKey): boolean {
  return a.address === b.address && a.port === b.port;
}
