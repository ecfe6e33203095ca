import {
  requestFields,
  invalidArgument,
  normalizePath,
  platformPathStyle,
  validateUint32 as uint32,
} from "@csi-proxy/exec";
import type { PathStyle, VolumeFileSystem } from "./types.js";

const volumeIdPattern =
  /^\\\\\?\\Volume\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}\\$/i;
const maxLabelLength = 32;

function hasControlCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) if (value.charCodeAt(i) < 0x20) return true;
  return false;
}

/** A request must be an object (upstream panicked on nil requests). */
export function assertRequest(value: unknown): void {
  requestFields(value, "Volume");
}

/** The path style of the running platform. */
export function defaultPathStyle(): PathStyle {
  return platformPathStyle();
}

/** `\\?\Volume{GUID}\` exactly (the MSFT_Volume UniqueId form), else INVALID_ARGUMENT. */
export function validateVolumeId(value: unknown): string {
  if (typeof value !== "string" || value === "") throw invalidArgument("volumeId is empty.");
  if (!volumeIdPattern.test(value))
    throw invalidArgument(
      `volumeId ${JSON.stringify(value)} is not of the form \\\\?\\Volume{GUID}\\.`,
    );
  return value;
}

/** An absolute path under the style's rules (shared with the Filesystem group), normalised; else INVALID_ARGUMENT. */
export function validateTargetPath(value: unknown, style: PathStyle): string {
  return normalizePath(value, { style });
}

/** A 32-bit unsigned integer (disk and partition numbers), else INVALID_ARGUMENT. */
export function validateUint32(value: unknown, field: string): number {
  return uint32(value, field);
}

/** A byte count ≥ 0 (`number` or `bigint`, at most 2^63 − 1) as `bigint`, else INVALID_ARGUMENT. */
export function validateSizeBytes(value: unknown): bigint {
  let size: bigint;
  if (typeof value === "bigint") size = value;
  else if (typeof value === "number" && Number.isSafeInteger(value)) size = BigInt(value);
  else throw invalidArgument("sizeBytes must be an integer (number up to 2^53 or bigint).");
  if (size < 0n) throw invalidArgument(`sizeBytes must not be negative (got ${size}).`);
  if (size > 0x7fffffffffffffffn) throw invalidArgument("sizeBytes exceeds 2^63 - 1.");
  return size;
}

/** `"NTFS"` (default) or `"ReFS"`, in any letter case. */
export function validateFileSystem(value: unknown): VolumeFileSystem {
  if (value === undefined) return "NTFS";
  if (typeof value === "string") {
    const upper = value.toUpperCase();
    if (upper === "NTFS") return "NTFS";
    if (upper === "REFS") return "ReFS";
  }
  throw invalidArgument(`fileSystem must be "NTFS" or "ReFS" (got ${JSON.stringify(value)}).`);
}

/** A file-system label of at most 32 printable characters; absent means none. */
export function validateLabel(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value !== "string") throw invalidArgument("label must be a string.");
  if (value.length > maxLabelLength)
    throw invalidArgument(`label is longer than ${maxLabelLength} characters.`);
  if (hasControlCharacter(value)) throw invalidArgument("label contains control characters.");
  return value;
}

/** The lock key of a volume: ids compare case-insensitively. */
export function volumeKey(volumeId: string): string {
  return `volume:${volumeId.toLowerCase()}`;
}

/** The lock key of a path: Windows paths case-insensitive, without `\\?\` and trailing separators. */
export function pathKey(path: string, style: PathStyle): string {
  if (style === "posix") return `path:${path.replace(/\/+/g, "/").replace(/(?<=.)\/$/, "")}`;
  const plain = path.startsWith("\\\\?\\") ? path.slice(4) : path;
  return `path:${plain.replace(/\//g, "\\").replace(/\\+$/, "").toLowerCase()}`;
}
