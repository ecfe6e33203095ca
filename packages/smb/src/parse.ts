import { CsiProxyError } from "@csi-proxy/exec";
import type { MappingOutcome, SmbMappingInfo } from "./host-types.js";
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

const outcomes = new Map<unknown, MappingOutcome>([
  ["Created", "created"],
  ["Reused", "reused"],
  ["Recreated", "recreated"],
]);

/** Output of `smb.ensureMapping`: what it did to the share root's mapping. */
export function parseMappingOutcome(out: unknown): MappingOutcome {
  const outcome = isRecord(out) ? outcomes.get(out.Outcome) : undefined;
  if (outcome === undefined) throw unexpected("smb.ensureMapping", out);
  return outcome;
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
