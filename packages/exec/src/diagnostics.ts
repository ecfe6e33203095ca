import { channel, subscribe, unsubscribe } from "node:diagnostics_channel";
import type { PowerShellError } from "./powershell-error.js";
import type { ExecMode } from "./types.js";

/**
 * Names of the `node:diagnostics_channel` channels every call publishes on.
 *
 * @example
 * ```ts
 * import { subscribe } from "node:diagnostics_channel";
 * import { execChannels, type ExecEndEvent } from "@csi-proxy/exec";
 *
 * subscribe(execChannels.end, (event) => {
 *   const { script, durationMs } = event as ExecEndEvent;
 *   histogram.observe({ script }, durationMs);
 * });
 * ```
 *
 * or, typed without a cast, {@link subscribeExec}.
 * ```
 */
export const execChannels = {
  /** Published when a call is accepted: {@link ExecStartEvent}. */
  start: "csi-proxy:exec:start",
  /** Published when a call returned: {@link ExecEndEvent}. */
  end: "csi-proxy:exec:end",
  /** Published when a call failed: {@link ExecErrorEvent}. */
  error: "csi-proxy:exec:error",
} as const;

/** Published when a call is accepted (before it may wait for a free process). */
export interface ExecStartEvent {
  /** Identifies the call across its start and end (or error) events. */
  readonly callId: number;
  /** {@link Script.name} of the call. */
  readonly script: string;
  /** The mode the call runs in. */
  readonly mode: ExecMode;
  /** Bound parameters with secret values replaced by `[REDACTED]`. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** Published when a call returned a result. */
export interface ExecEndEvent extends ExecStartEvent {
  /** Milliseconds from acceptance to result, queueing included. */
  readonly durationMs: number;
  /** How many objects the script wrote to its output. */
  readonly count: number;
}

/** Published when a call failed; `error` is already redacted. */
export interface ExecErrorEvent extends ExecStartEvent {
  /** Milliseconds from acceptance to failure, queueing included. */
  readonly durationMs: number;
  /** The failure, with secrets already redacted. */
  readonly error: PowerShellError;
}

/** The payload each of {@link execChannels} carries, by channel key. */
export interface ExecChannelEvents {
  /** The payload of the `start` channel. */
  readonly start: ExecStartEvent;
  /** The payload of the `end` channel. */
  readonly end: ExecEndEvent;
  /** The payload of the `error` channel. */
  readonly error: ExecErrorEvent;
}

/** A key of {@link execChannels}: `start`, `end` or `error`. */
export type ExecChannel = keyof ExecChannelEvents;

/**
 * Subscribes to one of {@link execChannels} with its payload typed (`node:diagnostics_channel`
 * types every message `unknown`); returns the function that unsubscribes.
 *
 * @example
 * ```ts
 * const stop = subscribeExec("end", (event) => histogram.observe(event.script, event.durationMs));
 * ```
 */
export function subscribeExec<K extends ExecChannel>(
  name: K,
  listener: (event: ExecChannelEvents[K]) => void,
): () => void {
  const channelName = execChannels[name];
  // Every message on these channels is published below with exactly this payload type.
  const handler = (message: unknown): void => listener(message as ExecChannelEvents[K]);
  subscribe(channelName, handler);
  return () => {
    unsubscribe(channelName, handler);
  };
}

const startChannel = channel(execChannels.start);
const endChannel = channel(execChannels.end);
const errorChannel = channel(execChannels.error);

export function publishStart(event: ExecStartEvent): void {
  if (startChannel.hasSubscribers) startChannel.publish(event);
}

export function publishEnd(start: ExecStartEvent, durationMs: number, count: number): void {
  // Built only for a subscriber: a call nobody watches allocates no event.
  if (!endChannel.hasSubscribers) return;
  const event: ExecEndEvent = { ...start, durationMs, count };
  endChannel.publish(event);
}

export function publishError(
  start: ExecStartEvent,
  durationMs: number,
  error: PowerShellError,
): void {
  if (!errorChannel.hasSubscribers) return;
  const event: ExecErrorEvent = { ...start, durationMs, error };
  errorChannel.publish(event);
}
