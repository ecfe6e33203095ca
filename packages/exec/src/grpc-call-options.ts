import type { CallOptions } from "./call-options.js";
import { invalidArgument } from "./errors.js";

/**
 * The members of a `@grpc/grpc-js` server call (`ServerUnaryCall`, `ServerWritableStream`, ...)
 * that {@link callOptionsFromGrpcCall} reads; structural, so this package does not depend on it.
 */
export interface GrpcServerCallLike {
  /** The client's deadline: a `Date`, or `Infinity` without one. */
  getDeadline(): Date | number;
  /** True once the client cancelled or the deadline passed. */
  readonly cancelled?: boolean;
  /**
   * grpc-js emits `cancelled` when the client cancels or the deadline passes, and also once the
   * call is answered (the signal then aborts with nothing left running).
   */
  on(event: "cancelled", listener: () => void): unknown;
}

/** The member of a nice-grpc `CallContext` that {@link callOptionsFromNiceGrpc} reads. */
export interface NiceGrpcContextLike {
  /** Aborts when the client cancels or the call's deadline passes. */
  readonly signal: AbortSignal;
}

/** Options for {@link callOptionsFromGrpcCall}. */
export interface GrpcCallOptionsSettings {
  /**
   * Milliseconds kept back from the client's deadline, so the library gives up (and the handler
   * answers `DEADLINE_EXCEEDED`) before the client stops listening. Default 250.
   */
  readonly marginMs?: number;
}

/** What the helpers build: always a signal, and the absolute deadline when the client set one. */
export type HandlerCallOptions = CallOptions & {
  /** Aborts when the client cancels or the call's deadline passes. */
  signal: AbortSignal;
};

/**
 * The call options for every library call one `@grpc/grpc-js` handler makes: the client's
 * deadline (less `marginMs`) as an absolute `deadline`, so each call gets only what is left,
 * and a signal that aborts when the client cancels. Build it once per RPC.
 *
 * @example
 * ```ts
 * const options = callOptionsFromGrpcCall(call);
 * await disk.partitionDisk({ diskNumber }, options);
 * await volume.formatVolume({ volumeId }, options);
 * ```
 */
export function callOptionsFromGrpcCall(
  call: GrpcServerCallLike,
  settings: GrpcCallOptionsSettings = {},
): HandlerCallOptions {
  const marginMs = settings.marginMs ?? 250;
  if (!Number.isFinite(marginMs) || marginMs < 0) {
    throw invalidArgument("callOptionsFromGrpcCall: marginMs must be a finite number >= 0.");
  }
  const controller = new AbortController();
  const cancel = (): void => controller.abort(new Error("The gRPC call was cancelled."));
  if (call.cancelled === true) cancel();
  else call.on("cancelled", cancel);
  const raw = call.getDeadline();
  const at = raw instanceof Date ? raw.getTime() : raw;
  if (at === Number.POSITIVE_INFINITY) return { signal: controller.signal };
  return { signal: controller.signal, deadline: at - marginMs };
}

/**
 * The call options for a nice-grpc handler: its context's signal already aborts at the
 * deadline and on cancellation, so it is all the library needs.
 */
export function callOptionsFromNiceGrpc(context: NiceGrpcContextLike): HandlerCallOptions {
  return { signal: context.signal };
}
