import { channel } from "node:diagnostics_channel";
import { describe, expect, expectTypeOf, it } from "vitest";
import {
  execChannels,
  subscribeExec,
  type ExecEndEvent,
  type ExecErrorEvent,
  type ExecStartEvent,
} from "../src/index.js";

const end: ExecEndEvent = {
  callId: 7,
  script: "test.end",
  mode: "session",
  params: { Name: "x" },
  durationMs: 3,
  count: 1,
};

describe("subscribeExec", () => {
  it("delivers the channel's payload, typed, until unsubscribed", () => {
    const seen: ExecEndEvent[] = [];
    const stop = subscribeExec("end", (event) => {
      expectTypeOf(event).toEqualTypeOf<ExecEndEvent>();
      seen.push(event);
    });
    channel(execChannels.end).publish(end);
    channel(execChannels.start).publish({ ...end, script: "other.channel" });
    stop();
    channel(execChannels.end).publish({ ...end, callId: 8 });
    expect(seen).toEqual([end]);
    expect(channel(execChannels.end).hasSubscribers).toBe(false);
  });

  it("types every channel's payload", () => {
    const stops = [
      subscribeExec("start", (event) => expectTypeOf(event).toEqualTypeOf<ExecStartEvent>()),
      subscribeExec("error", (event) => expectTypeOf(event).toEqualTypeOf<ExecErrorEvent>()),
    ];
    for (const stop of stops) stop();
    // @ts-expect-error only the three exec channels exist
    expect(() => subscribeExec("finish", () => undefined)).toThrow();
  });
});
