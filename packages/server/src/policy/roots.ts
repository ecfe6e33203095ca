import { withinRoots } from "../paths.js";

/**
 * The folders in both lists of granted folders, where two decisions both allowed a call: for
 * every pair where one lies in the other, the deeper one. Each of the call's paths lies in a
 * folder of each list, so it lies in one of these.
 */
export function intersectRoots(a: readonly string[], b: readonly string[]): string[] {
  const out = new Set<string>();
  for (const x of a) {
    for (const y of b) {
      if (withinRoots(x, [y])) out.add(x);
      else if (withinRoots(y, [x])) out.add(y);
    }
  }
  return [...out];
}
