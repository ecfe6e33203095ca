import {
  ownRequest,
  invalidArgument,
  normalizePath,
  validateUint32 as uint32,
} from "@csi-proxy/exec";
import type { PathStyle, VolumeFileSystem } from "./types.js";

const volumeIdPattern =
  /^\\\\\?\\Volume\{[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\}\\$/i;
// Windows' `label` command: "as many as 32 characters for NTFS volumes ... spaces but no tabs"
// (learn.microsoft.com/previous-versions/windows/it-pro/windows-xp/bb490925); its FAT character
// limits "do not apply to NTFS volumes". Counted in UTF-16 units, the stricter reading; ReFS
// labels are held to the same rule, as no documented limit says otherwise.
const maxLabelLength = 32;

/** C0 and C1 controls (tab included), DEL, and the line and paragraph separators. */
function hasForbiddenLabelCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029)
      return true;
  }
  return false;
}

/**
 * A request must be an object (upstream panicked on nil requests); returns its own fields only,
 * so nothing set on `Object.prototype` is read as a field.
 */
export function assertRequest<T>(value: T): T {
  return ownRequest(value, "Volume");
}

/**
 * Validates a volume id the way every method of this group does, so a gRPC handler can refuse bad
 * input before calling anything: `\\?\Volume{GUID}\` exactly (the MSFT_Volume UniqueId form,
 * GUID in any letter case). Returns the value unchanged; throws `INVALID_ARGUMENT` (a
 * `CsiProxyError`) otherwise.
 *
 * @example
 * ```ts
 * parseVolumeId("\\\\?\\Volume{0a1b2c3d-0000-0000-0000-100000000000}\\"); // returned as is
 * parseVolumeId("C:\\"); // throws CsiProxyError { code: "INVALID_ARGUMENT" }
 * ```
 */
export function parseVolumeId(value: unknown): string {
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

/** An NTFS/ReFS label: at most 32 characters, no tab or other control character; absent means none. */
export function validateLabel(value: unknown): string {
  if (value === undefined) return "";
  if (typeof value !== "string") throw invalidArgument("label must be a string.");
  if (value.length > maxLabelLength)
    throw invalidArgument(`label is longer than ${maxLabelLength} characters.`);
  if (hasForbiddenLabelCharacter(value))
    throw invalidArgument("label contains a tab, control character or line separator.");
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
