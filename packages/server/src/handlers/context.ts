import type { Disk } from "@csi-proxy/disk";
import { invalidArgument, type CallOptions } from "@csi-proxy/exec";
import type { Boundaries, Filesystem } from "@csi-proxy/filesystem";
import type { Iscsi } from "@csi-proxy/iscsi";
import type { Smb } from "@csi-proxy/smb";
import type { System } from "@csi-proxy/system";
import type { Volume } from "@csi-proxy/volume";
import { windowsPath, type PathMapping } from "../paths.js";

/** The library groups the server delegates to, all on one host. */
export interface NodeGroups {
  readonly disk: Disk;
  readonly filesystem: Filesystem;
  readonly iscsi: Iscsi;
  readonly smb: Smb;
  readonly system: System;
  readonly volume: Volume;
}

/** What every handler needs besides its request. */
export interface HandlerContext {
  readonly groups: NodeGroups;
  /** How request paths reach the host. */
  readonly paths: PathMapping;
  /** Upstream's allowed prefixes (`--working-dir`..., then `--kubelet-path`), normalised. */
  readonly workingDirs: readonly string[];
  /** `--require-privacy`: SMB mappings require encryption. */
  readonly requirePrivacy: boolean;
}

/** A decoded request or a response, keyed by the proto's field names. */
export type Message = Readonly<Record<string, unknown>>;

/** What the policy gave one call: the folders its path fields may act in (Windows paths). */
export interface CallScope {
  readonly roots: readonly string[];
  /** Which volumes and shares the filesystem group may pass beyond those folders. */
  readonly boundaries?: Boundaries;
  /**
   * Links the call publishes lead where their source finally leads (a volume's or a share's
   * path), never to a name the caller could re-point; false only under `v1-compatible`.
   */
  readonly pinLinks?: boolean;
  /** Whether a Windows path, where it really is, lies in a folder granted to the caller. */
  readonly granted?: (windowsPath: string) => Promise<boolean>;
}

/**
 * One RPC: the decoded request, the call's deadline and cancellation, and what the policy gave
 * it, to the response.
 */
export type Rpc = (request: Message, options: CallOptions, scope?: CallScope) => Promise<Message>;

/** The RPCs of one service, by method name. */
export type ServiceHandlers = Readonly<Record<string, Rpc>>;

/** A string field (proto3 default: empty). */
export function text(message: Message, field: string): string {
  const value = message[field];
  return typeof value === "string" ? value : "";
}

/** A uint32 field (proto3 default: 0). */
export function uint(message: Message, field: string): number {
  const value = message[field];
  return typeof value === "number" ? value : 0;
}

/** A bool field (proto3 default: false). */
export function flag(message: Message, field: string): boolean {
  return message[field] === true;
}

/** An int64 field, decoded as decimal text (proto3 default: 0). */
export function int64(message: Message, field: string): bigint {
  const value = message[field];
  return typeof value === "string" || typeof value === "number" ? BigInt(value) : 0n;
}

/** A non-empty string, or undefined for proto3's empty default (an unset optional field). */
export function optionalText(message: Message, field: string): string | undefined {
  const value = text(message, field);
  return value === "" ? undefined : value;
}

/** A path field, checked by the Windows path rules and mapped to the host. */
export function hostPath(paths: PathMapping, message: Message, field: string): string {
  return paths.toHost(windowsPath(text(message, field)));
}

/**
 * A disk number that an older API version sends as decimal text (`diskID`, `disk_id`), as
 * upstream parses it (digits only). Unlike upstream, which truncates a 64-bit value to 32 bits
 * (so "4294967296" is disk 0), a number that is no uint32 is refused.
 */
export function legacyDiskNumber(message: Message, field: string): number {
  const value = text(message, field);
  const number = /^\d{1,10}$/.test(value) ? Number(value) : Number.NaN;
  if (!(number <= 0xffffffff)) {
    throw invalidArgument(`Failed to parse ${field} ${JSON.stringify(value)}: not a disk number.`);
  }
  return number;
}

/** One RPC of a newer version's handlers, for an older version to delegate to. */
export function rpcOf(handlers: ServiceHandlers, method: string): Rpc {
  const rpc = handlers[method];
  if (rpc === undefined) throw new Error(`No handler ${method} to delegate to.`);
  return rpc;
}
