import { subscribe, unsubscribe } from "node:diagnostics_channel";
import {
  execChannels,
  type ExecEndEvent,
  type ExecErrorEvent,
  type ExecStartEvent,
} from "@csi-proxy/exec";

/** One library call as the exec diagnostics channels report it (secrets already redacted there). */
export interface LoggedCall {
  readonly callId: number;
  readonly script: string;
  readonly params: Readonly<Record<string, unknown>>;
  readonly outcome: "ok" | "error";
  readonly durationMs: number;
  readonly error?: { readonly code: string; readonly message: string; readonly errorId?: string };
}

/** Records every PowerShell call this process makes until `stop()`. */
export class CallLog {
  readonly calls: LoggedCall[] = [];
  private readonly onEnd = (message: unknown) => {
    const event = message as ExecEndEvent;
    this.calls.push({ ...this.base(event), outcome: "ok", durationMs: event.durationMs });
  };
  private readonly onError = (message: unknown) => {
    const event = message as ExecErrorEvent;
    const record = event.error.record;
    this.calls.push({
      ...this.base(event),
      outcome: "error",
      durationMs: event.durationMs,
      error: {
        code: event.error.code,
        message: event.error.message,
        ...(record === undefined ? {} : { errorId: record.fullyQualifiedErrorId }),
      },
    });
  };

  constructor() {
    subscribe(execChannels.end, this.onEnd);
    subscribe(execChannels.error, this.onError);
  }

  stop(): void {
    unsubscribe(execChannels.end, this.onEnd);
    unsubscribe(execChannels.error, this.onError);
  }

  private base(event: ExecStartEvent) {
    return { callId: event.callId, script: event.script, params: event.params };
  }
}
