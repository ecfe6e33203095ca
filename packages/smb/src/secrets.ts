import { CsiProxyError, createRedactor, isCsiProxyError, type Redactor } from "@csi-proxy/exec";

/** Whether any string reachable from `value` (own properties, `cause` chain, arrays) holds a secret. */
function leaks(value: unknown, redact: Redactor, seen: Set<object>): boolean {
  if (typeof value === "string") return redact(value) !== value;
  if (typeof value !== "object" || value === null || seen.has(value)) return false;
  seen.add(value);
  for (const key of Reflect.ownKeys(value)) {
    // Read data properties only, so no getter runs.
    const descriptor = Object.getOwnPropertyDescriptor(value, key);
    if (descriptor !== undefined && "value" in descriptor && leaks(descriptor.value, redact, seen))
      return true;
  }
  return false;
}

/**
 * Returns `error` unchanged unless a secret appears anywhere in it (which exec's own errors
 * never allow, but an injected host's might); then a replacement with the same code, the
 * message redacted and no `cause`, because the cause is what carried the secret.
 */
export function withoutSecrets(error: unknown, secrets: readonly string[]): unknown {
  const present = secrets.filter((secret) => secret !== "");
  if (present.length === 0) return error;
  const redact = createRedactor(present);
  if (!leaks(error, redact, new Set())) return error;
  const message = redact(error instanceof Error ? error.message : String(error));
  return new CsiProxyError(`${message} (details withheld: they contained a secret)`, {
    code: isCsiProxyError(error) ? error.code : "COMMAND_FAILED",
  });
}
