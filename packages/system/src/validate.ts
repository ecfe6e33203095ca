import { invalidArgument, requestFields } from "@csi-proxy/exec";

/** Longest service name the Service Control Manager accepts. */
export const maxServiceNameLength = 256;
/** Longest wait a call may ask for: one day (the scripts take an Int32 of milliseconds). */
export const maxTimeoutMs = 86_400_000;

// Get-Service/Stop-Service treat * ? [ ] as wildcards, so such a name could match several services.
const wildcard = /[*?[\]]/;
/** The SCM rejects / and \ in service names; control characters are never part of one. */
function hasForbiddenCharacter(name: string): boolean {
  for (const char of name) {
    const code = char.charCodeAt(0);
    if (char === "/" || char === "\\" || code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/** The request must be an object: JavaScript callers get no compile-time check. */
export const requestObject = requestFields;

/**
 * A service name that names exactly one service: non-empty, at most 256 characters, no wildcard
 * characters, no `/`, `\` or control characters.
 */
export function checkServiceName(value: unknown, method: string): string {
  if (typeof value !== "string" || value === "") {
    throw invalidArgument(`${method}: name must be a non-empty string, got ${describe(value)}.`);
  }
  if (value.length > maxServiceNameLength) {
    throw invalidArgument(`${method}: name is longer than ${maxServiceNameLength} characters.`);
  }
  if (wildcard.test(value)) {
    throw invalidArgument(
      `${method}: name ${describe(value)} contains a wildcard character (* ? [ ]), which could match several services.`,
    );
  }
  if (hasForbiddenCharacter(value)) {
    throw invalidArgument(
      `${method}: name ${describe(value)} contains a character no service name has (/, \\ or a control character).`,
    );
  }
  return value;
}

/** The `name` field of a request. */
export function serviceName(request: unknown, method: string): string {
  return checkServiceName(requestObject(request, method).name, method);
}

/** An optional positive integer number of milliseconds, at most one day. */
export function timeoutField(request: unknown, method: string, fallback: number): number {
  const value = requestObject(request, method).timeoutMs;
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > maxTimeoutMs) {
    throw invalidArgument(
      `${method}: timeoutMs must be an integer from 1 to ${maxTimeoutMs}, got ${describe(value)}.`,
    );
  }
  return value;
}

/** An optional boolean field. */
export function optionalBoolean(request: unknown, field: string, method: string): boolean {
  const value = requestObject(request, method)[field];
  if (value === undefined) return false;
  if (typeof value !== "boolean") {
    throw invalidArgument(`${method}: ${field} must be a boolean, got ${describe(value)}.`);
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value.slice(0, 100));
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return value === null ? "null" : typeof value;
}
