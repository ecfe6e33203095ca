import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { inspect } from "node:util";
import { execChannels } from "@csi-proxy/exec";
import { afterAll, beforeAll, expect } from "vitest";

/** Every diagnostics event published while a suite runs, to search for secrets. */
export function useEventLog(): () => unknown[] {
  const events: unknown[] = [];
  const record = (event: unknown): void => {
    events.push(event);
  };
  const names = [execChannels.start, execChannels.end, execChannels.error];
  beforeAll(() => {
    for (const name of names) subscribe(name, record);
  });
  afterAll(() => {
    for (const name of names) unsubscribe(name, record);
  });
  return () => events;
}

/** Everything a caller or a log could see of a value: util.inspect at full depth, plus JSON. */
export function visible(value: unknown): string {
  let json: string;
  try {
    // Wrapped, so undefined still gives a string.
    json = JSON.stringify({ value });
  } catch {
    json = "";
  }
  return `${inspect(value, { depth: null, showHidden: true, getters: true })}\n${json}`;
}

/** Fails if the secret, raw or JSON-escaped, is anywhere in `text`. */
export function expectNoSecret(text: string, secret: string, where: string): void {
  expect(text.includes(secret), `${where} holds the secret`).toBe(false);
  expect(
    text.includes(JSON.stringify(secret).slice(1, -1)),
    `${where} holds the escaped secret`,
  ).toBe(false);
}

/** The error a call failed with; fails the test when it succeeded. */
export async function errorOf(call: Promise<unknown>): Promise<unknown> {
  const result: unknown = await call.then(
    () => "resolved",
    (error: unknown) => ({ error }),
  );
  expect(result, "the call should have failed").not.toBe("resolved");
  return (result as { error: unknown }).error;
}
