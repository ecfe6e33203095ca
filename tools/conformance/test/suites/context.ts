import { isCsiProxyError, type CsiProxyErrorCode } from "@csi-proxy/exec";
import { expect } from "vitest";
import type { Groups } from "../../src/groups.js";
import type { ConformanceHost } from "../../src/host.js";

/** What every part of the suite shares: the host, the groups, and what earlier steps made. */
export interface SuiteContext {
  host: ConformanceHost;
  groups: Groups;
  /** Filled by the volume part: the blank disk A's volume, mounted at `staging`. */
  volumeA: string;
  diskA: number;
  staging: string;
}

/** A holder the suite files read once beforeAll has filled it. */
export const suite: { current: SuiteContext | undefined } = { current: undefined };

export function ctx(): SuiteContext {
  if (suite.current === undefined) throw new Error("The conformance host was not set up.");
  return suite.current;
}

/** Expects `promise` to reject with a CsiProxyError of `code` (the branch a driver takes). */
export async function expectCode(
  promise: Promise<unknown>,
  code: CsiProxyErrorCode,
): Promise<void> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isCsiProxyError(error), `expected a CsiProxyError ${code}, got ${String(error)}`).toBe(
    true,
  );
  expect((error as { code: string }).code).toBe(code);
}

/** The path joiner of the host's path style. */
export function join(...parts: string[]): string {
  const { pathStyle } = ctx().host;
  const sep = pathStyle === "windows" ? "\\" : "/";
  return parts
    .map((p, i) => (i === 0 ? p.replace(/[\\/]+$/, "") : p.replace(/^[\\/]+|[\\/]+$/g, "")))
    .join(sep);
}

/** Swaps the case of every letter after `iqn.`'s date, e.g. `iqn.1991-05.COM.MICROSOFT:…`. */
export function mixedCase(iqn: string): string {
  const cut = iqn.indexOf(".", 4);
  const head = iqn.slice(0, cut);
  const tail = iqn
    .slice(cut)
    .replace(/[a-z]/gi, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()));
  return head + tail;
}
