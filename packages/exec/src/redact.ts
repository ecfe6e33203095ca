import { redactedMarker } from "./params.js";

/** Replaces each secret (longest first) where it appears in text. */
export type Redactor = (text: string) => string;

/**
 * Secrets at least this long are replaced wherever they appear; shorter ones only where they
 * stand as a whole token (no letter or digit on either side), since a one-letter or short secret
 * occurs by chance inside words, keys and names (`p` in `NewSmbGlobalMapping`).
 */
export const minAnywhereSecretLength = 8;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Builds a {@link Redactor} for these secret values, also matching their quoted and JSON-escaped
 * echoes: secrets of {@link minAnywhereSecretLength} characters or more wherever they appear,
 * shorter ones as whole tokens only.
 */
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
  const anywhere = list.filter((v) => v.length >= minAnywhereSecretLength);
  const short = list.filter((v) => v.length < minAnywhereSecretLength);
  const tokens =
    short.length === 0
      ? undefined
      : new RegExp(
          `(?<![\\p{L}\\p{N}])(?:${short.map(escapeRegExp).join("|")})(?![\\p{L}\\p{N}])`,
          "gu",
        );
  return (text) => {
    let out = text;
    for (const secret of anywhere) out = out.split(secret).join(redactedMarker);
    return tokens === undefined ? out : out.replace(tokens, redactedMarker);
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
