import type { CallOptions } from "@csi-proxy/exec";

/** The part of a gRPC server call that carries its deadline and cancellation. */
export interface DeadlineCall {
  getDeadline(): Date | number;
  on(event: "cancelled", listener: () => void): unknown;
  removeListener(event: "cancelled", listener: () => void): unknown;
}

// The library's largest timeout (2^31 - 1 ms, Node's timer limit).
const maxTimeoutMs = 2 ** 31 - 1;

/** A call's options for the library, or "expired" when its deadline has already passed. */
export interface CallScope {
  readonly options: CallOptions | "expired";
  /** Stops listening to the call; run once the handler settled. */
  release(): void;
}

/**
 * The call options for one gRPC call: `signal` aborts when the client cancels (or the server
 * is forced down), `timeoutMs` is what is left of the client's deadline.
 */
export function callScope(call: DeadlineCall, now = Date.now()): CallScope {
  const controller = new AbortController();
  const onCancel = () => controller.abort(new Error("the client cancelled the gRPC call"));
  call.on("cancelled", onCancel);
  const release = () => call.removeListener("cancelled", onCancel);
  const deadline = call.getDeadline();
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  if (!Number.isFinite(at)) return { options: { signal: controller.signal }, release };
  const left = Math.floor(at - now);
  if (left < 1) return { options: "expired", release };
  return {
    options: { signal: controller.signal, timeoutMs: Math.min(left, maxTimeoutMs) },
    release,
  };
}
