import { existsSync } from "node:fs";
import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { execChannels } from "@csi-proxy/exec";
import { afterAll, beforeAll, expect } from "vitest";
import { loggedStrings, outcome, type ProofHost } from "./proof-host.js";

/** Where an accepted value must show up in the call log, exactly. */
export interface Expectation {
  readonly command: string;
  readonly parameter: string;
  readonly value: string;
}

/** Counts exec calls started (any shell), so a rejection can be shown to have spawned nothing. */
export function useStartCounter(): () => number {
  let started = 0;
  const count = (): void => {
    started += 1;
  };
  beforeAll(() => subscribe(execChannels.start, count));
  afterAll(() => unsubscribe(execChannels.start, count));
  return () => started;
}

/**
 * One hostile value through one method: no canary ever, and either INVALID_ARGUMENT with nothing
 * started and nothing logged, or the value logged byte-exact where `expected` says.
 */
export async function proveValue(
  host: ProofHost,
  started: () => number,
  call: () => Promise<unknown>,
  expected: Expectation | undefined,
): Promise<string> {
  host.mark();
  const before = started();
  const code = await outcome(call());
  expect(existsSync(host.canary), "an injected command ran").toBe(false);
  expect(code).not.toMatch(/^untyped/);
  // INVALID_ARGUMENT with nothing started is validation; after a start it is the host's answer.
  if (code === "INVALID_ARGUMENT" && started() === before) {
    expect(host.since(), "a rejected value still reached the host").toEqual([]);
  } else if (expected !== undefined) {
    const entries = host.since().filter((entry) => entry.command === expected.command);
    expect(loggedStrings(entries, expected.parameter), JSON.stringify(host.since())).toContain(
      expected.value,
    );
  }
  return code;
}
