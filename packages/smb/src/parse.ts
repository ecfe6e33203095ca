import { CsiProxyError } from "@csi-proxy/exec";
import type { SmbMappingInfo, SmbMappingState } from "./host-types.js";
import { toMappingStatus } from "./status.js";

function unexpected(script: string, out: unknown): CsiProxyError {
  return new CsiProxyError(`${script} returned an unexpected value: ${JSON.stringify(out)}`, {
    code: "PARSE_FAILED",
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function toMappingInfo(script: string, out: unknown): SmbMappingInfo {
  if (!isRecord(out) || typeof out.RemotePath !== "string") throw unexpected(script, out);
  const localPath =
    typeof out.LocalPath === "string" && out.LocalPath !== "" ? out.LocalPath : undefined;
  return { remotePath: out.RemotePath, localPath, ...toMappingStatus(out.Status) };
}

/** Output of `smb.getMapping`: nothing when there is no mapping. */
export function parseMappingState(out: unknown): SmbMappingState | undefined {
  if (out === undefined || out === null) return undefined;
  const info = toMappingInfo("smb.getMapping", out);
  const valid = (out as Record<string, unknown>).PathValid;
  if (valid !== null && valid !== undefined && typeof valid !== "boolean")
    throw unexpected("smb.getMapping", out);
  return { ...info, pathValid: valid ?? undefined };
}

/** Output of `smb.listMappings`: always an array. */
export function parseMappingList(out: unknown): SmbMappingInfo[] {
  if (!Array.isArray(out)) throw unexpected("smb.listMappings", out);
  return out.map((item: unknown) => toMappingInfo("smb.listMappings", item));
}

/** Output of `smb.removeMapping`: how many mappings were removed. */
export function parseRemoved(out: unknown): boolean {
  if (!isRecord(out) || typeof out.Removed !== "number") throw unexpected("smb.removeMapping", out);
  return out.Removed > 0;
}
