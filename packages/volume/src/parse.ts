import { CsiProxyError } from "@csi-proxy/exec";
import type {
  HostVolumeDisk,
  MountOutcome,
  ResizeOutcome,
  PathLookup,
  UnmountOutcome,
  VolumeInfo,
} from "./host-types.js";

type Json = Record<string, unknown>;

function parseFailed(what: string, value: unknown): CsiProxyError {
  return new CsiProxyError(`Unexpected ${what} from PowerShell: ${JSON.stringify(value)}`, {
    code: "PARSE_FAILED",
  });
}

function object(what: string, value: unknown): Json {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw parseFailed(what, value);
  return value as Json;
}

function text(what: string, value: unknown): string {
  if (value === null || value === undefined) return "";
  if (typeof value !== "string") throw parseFailed(what, value);
  return value;
}

function list(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined || value === null ? [] : [value];
}

/** A UInt64 from JSON (`number` or, above 2^53, `bigint`) as an exact `bigint`. */
export function parseSize(what: string, value: unknown): bigint {
  if (typeof value === "bigint" && value >= 0n) return value;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return BigInt(value);
  throw parseFailed(what, value);
}

/** A `bigint` byte count back as `number` when it is exact, as `@csi-proxy/exec` does. */
export function toByteCount(value: bigint): number | bigint {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= 0n ? Number(value) : value;
}

function uint32(what: string, value: unknown): number {
  if (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= 0xffffffff)
    return value;
  throw parseFailed(what, value);
}

/** `,@(...)` of UniqueId strings. */
export function parseVolumeIds(value: unknown): string[] {
  return list(value)
    .map((id) => text("volume id", id))
    .filter((id) => id !== "");
}

/** The projection written by the getVolume script. */
export function parseVolumeInfo(value: unknown): VolumeInfo {
  const o = object("volume", value);
  return {
    volumeId: text("UniqueId", o.UniqueId),
    fileSystem: text("FileSystem", o.FileSystem),
    fileSystemType: text("FileSystemType", o.FileSystemType),
    label: text("FileSystemLabel", o.FileSystemLabel),
    size: parseSize("Size", o.Size),
    sizeRemaining: parseSize("SizeRemaining", o.SizeRemaining),
  };
}

/** The status object of the resize script. */
export function parseResizeOutcome(value: unknown): ResizeOutcome {
  const o = object("resize result", value);
  switch (o.Status) {
    case "resized":
      return { status: "resized", sizeBytes: parseSize("Size", o.Size) };
    case "unreachable":
      return { status: "unreachable", diskSize: parseSize("DiskSize", o.DiskSize) };
    case "skipped":
    case "noSizeMax":
      return { status: o.Status };
    default:
      throw parseFailed("resize status", o.Status);
  }
}

/** `,@(...)` of access paths. */
export function parseMountPoints(value: unknown): string[] {
  return list(value).map((path) => text("access path", path));
}

/** `,@(...)` of disk numbers. */
export function parseDiskNumbers(value: unknown): number[] {
  return list(value).map((n) => uint32("DiskNumber", n));
}

/** `volume.listVolumeDisks`: each partition's volume id and disk number. */
export function parseVolumeDisks(value: unknown): HostVolumeDisk[] {
  return list(value).map((item) => {
    const o = object("volume disk", item);
    return {
      volumeId: text("VolumeId", o.VolumeId),
      diskNumber: uint32("DiskNumber", o.DiskNumber),
    };
  });
}

/** The status object of the mount script. */
export function parseMountOutcome(value: unknown): MountOutcome {
  const o = object("mount result", value);
  switch (o.Status) {
    case "mounted":
    case "alreadyMounted":
    case "notEmpty":
    case "notDirectory":
      return { status: o.Status };
    case "occupied":
      return { status: "occupied", target: text("Target", o.Target) };
    default:
      throw parseFailed("mount result", value);
  }
}

/** The status object of the unmount script. */
export function parseUnmountOutcome(value: unknown): UnmountOutcome {
  const o = object("unmount result", value);
  switch (o.Status) {
    case "unmounted":
    case "notMounted":
      return { status: o.Status };
    case "otherVolume":
      return { status: "otherVolume", target: text("Target", o.Target) };
    default:
      throw parseFailed("unmount result", value);
  }
}

/** The status object of both path lookups. */
export function parsePathLookup(value: unknown): PathLookup {
  const o = object("path lookup", value);
  switch (o.Status) {
    case "found":
      return { status: "found", volumeId: text("VolumeId", o.VolumeId) };
    case "notMounted":
    case "noVolume":
      return { status: o.Status, path: text("Path", o.Path) };
    case "tooDeep":
      return { status: "tooDeep" };
    default:
      throw parseFailed("path lookup", value);
  }
}
