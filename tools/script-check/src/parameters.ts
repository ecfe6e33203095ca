import type { ParameterName } from "./signatures.js";

/** How PowerShell's binder would resolve a `-name` against a command's parameters. */
export type ParameterMatch =
  | { readonly kind: "match"; readonly parameter: string }
  | { readonly kind: "ambiguous"; readonly candidates: readonly string[] }
  | { readonly kind: "unknown" };

/**
 * Resolves `used` as the binder does: case-insensitive, an exact name or alias first, else an
 * unambiguous prefix of a name or alias; a prefix of several parameters is ambiguous.
 */
export function resolveParameter(known: readonly ParameterName[], used: string): ParameterMatch {
  const wanted = used.toLowerCase();
  const spellings = (p: ParameterName) => [p.name, ...p.aliases].map((s) => s.toLowerCase());
  const exact = known.find((p) => spellings(p).includes(wanted));
  if (exact !== undefined) return { kind: "match", parameter: exact.name };
  const prefixed = known.filter((p) => spellings(p).some((s) => s.startsWith(wanted)));
  const names = [...new Set(prefixed.map((p) => p.name))];
  const [only] = names;
  if (names.length === 1 && only !== undefined) return { kind: "match", parameter: only };
  if (names.length > 1) return { kind: "ambiguous", candidates: names };
  return { kind: "unknown" };
}
