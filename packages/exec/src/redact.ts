import { redactedMarker } from "./params.js";

/** Replaces every occurrence of each secret (longest first) in text. */
export type Redactor = (text: string) => string;

/** Builds a {@link Redactor} for these secret values, also matching their quoted and JSON-escaped echoes. */
export function createRedactor(secrets: readonly string[]): Redactor {
  const ordered = [...new Set(secrets)].filter((s) => s !== "").sort((a, b) => b.length - a.length);
  if (ordered.length === 0) return (text) => text;
  // Also catch a secret as PowerShell or JSON would echo it back, with quotes doubled or escaped.
  const variants = new Set<string>();
  for (const secret of ordered) {
    variants.add(secret);
    variants.add(secret.replaceAll("'", "''"));
    variants.add(JSON.stringify(secret).slice(1, -1));
  }
  const list = [...variants].sort((a, b) => b.length - a.length);
  return (text) => {
    let out = text;
    for (const secret of list) out = out.split(secret).join(redactedMarker);
    return out;
  };
}

/** Applies a redactor to every string inside a JSON-like value. */
export function redactDeep<T>(value: T, redact: Redactor): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactDeep(item, redact)) as T;
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = redactDeep(item, redact);
    return out as T;
  }
  return value;
}
