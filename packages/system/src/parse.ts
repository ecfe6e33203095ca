import { CsiProxyError } from "@csi-proxy/exec";
import type { HostDependencies, HostDependentEdge, HostService, HostServiceWait } from "./host.js";

function parseFailed(what: string, value: unknown): CsiProxyError {
  // JSON.stringify cannot show undefined (a script that wrote nothing), so name it.
  const shown =
    value === undefined
      ? "nothing"
      : JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? String(v) : v));
  return new CsiProxyError(`Unexpected ${what} from PowerShell: ${shown.slice(0, 200)}`, {
    code: "PARSE_FAILED",
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An enum code as the scripts write it: an integer, or null when Windows gave none. */
function code(value: unknown): number | null | undefined {
  if (value === null) return null;
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}

/** Output of the BIOS script: nothing (no Win32_BIOS instance) or `{ serialNumber }`. */
export function parseBiosSerialNumber(value: unknown): string | null {
  if (value === undefined) return null;
  if (!isRecord(value)) throw parseFailed("BIOS serial number", value);
  const { serialNumber } = value;
  if (serialNumber === null || serialNumber === undefined) return null;
  if (typeof serialNumber !== "string") throw parseFailed("BIOS serial number", value);
  return serialNumber;
}

/** Output of the one-service query. */
export function parseService(value: unknown): HostService {
  if (!isRecord(value)) throw parseFailed("service", value);
  const { name, displayName } = value;
  const status = code(value.status);
  const startType = code(value.startType);
  if (
    typeof name !== "string" ||
    typeof displayName !== "string" ||
    status === undefined ||
    startType === undefined
  ) {
    throw parseFailed("service", value);
  }
  return { name, displayName, status, startType };
}

function parseEdge(value: unknown): HostDependentEdge {
  if (!isRecord(value)) throw parseFailed("dependent service", value);
  const { parent, name } = value;
  const status = code(value.status);
  if (typeof parent !== "string" || typeof name !== "string" || status === undefined) {
    throw parseFailed("dependent service", value);
  }
  return { parent, name, status };
}

/** Output of the dependents walk. */
export function parseDependencies(value: unknown): HostDependencies {
  if (!isRecord(value) || !Array.isArray(value.dependents)) {
    throw parseFailed("dependent services", value);
  }
  const { name } = value;
  const status = code(value.status);
  if (typeof name !== "string" || status === undefined) {
    throw parseFailed("dependent services", value);
  }
  return { name, status, dependents: (value.dependents as unknown[]).map(parseEdge) };
}

/** Output of the start and stop scripts. */
export function parseServiceWait(value: unknown): HostServiceWait {
  if (!isRecord(value)) throw parseFailed("service state", value);
  const { requested, timedOut } = value;
  const status = code(value.status);
  const startType = code(value.startType);
  if (
    status === undefined ||
    status === null ||
    startType === undefined ||
    typeof requested !== "boolean" ||
    typeof timedOut !== "boolean"
  ) {
    throw parseFailed("service state", value);
  }
  return { status, startType, requested, timedOut };
}
