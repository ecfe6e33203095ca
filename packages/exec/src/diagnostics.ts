import { channel } from "node:diagnostics_channel";
import type { PowerShellError } from "./powershell-error.js";
import type { ExecMode } from "./types.js";

/** Names of the `node:diagnostics_channel` channels every call publishes on. */
export const execChannels = {
  start: "csi-proxy:exec:start",
  end: "csi-proxy:exec:end",
  error: "csi-proxy:exec:error",
} as const;

/** Published when a call is accepted (before it may wait for a free process). */
export interface ExecStartEvent {
  readonly callId: number;
  readonly script: string;
  readonly mode: ExecMode;
  /** Bound parameters with secret values replaced by `[REDACTED]`. */
  readonly params: Readonly<Record<string, unknown>>;
}

/** Published when a call returned a result. */
export interface ExecEndEvent extends ExecStartEvent {
  readonly durationMs: number;
  /** How many objects the script wrote to its output. */
  readonly count: number;
}

/** Published when a call failed; `error` is already redacted. */
export interface ExecErrorEvent extends ExecStartEvent {
  readonly durationMs: number;
  readonly error: PowerShellError;
}

const startChannel = channel(execChannels.start);
const endChannel = channel(execChannels.end);
const errorChannel = channel(execChannels.error);

export function publishStart(event: ExecStartEvent): void {
  if (startChannel.hasSubscribers) startChannel.publish(event);
}

export function publishEnd(event: ExecEndEvent): void {
  if (endChannel.hasSubscribers) endChannel.publish(event);
}

export function publishError(event: ExecErrorEvent): void {
  if (errorChannel.hasSubscribers) errorChannel.publish(event);
}
