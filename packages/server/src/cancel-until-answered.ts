import type { GrpcServerCallLike } from "@csi-proxy/exec";

/** A grpc-js server call: it also takes a `cancelled` listener back. */
export type ServedCall = GrpcServerCallLike & {
  removeListener(event: "cancelled", listener: () => void): unknown;
};

/** A call's `cancelled` event as the library's call options hear it, until the call is answered. */
export interface UntilAnswered {
  /** The call, for `callOptionsFromGrpcCall`. */
  readonly call: GrpcServerCallLike;
  /** The call is answered: its end no longer aborts the library's signal. */
  answered(): void;
}

/**
 * grpc-js says `cancelled` at the end of every call, answered or not; aborting the signal of a
 * call already answered runs its abort for nothing, on every call. Only a call still running is
 * cancelled.
 */
export function cancelledUntilAnswered(call: ServedCall): UntilAnswered {
  const listeners: (() => void)[] = [];
  return {
    call: {
      getDeadline: () => call.getDeadline(),
      get cancelled() {
        return call.cancelled === true;
      },
      on(event, listener) {
        listeners.push(listener);
        return call.on(event, listener);
      },
    },
    answered() {
      for (const listener of listeners.splice(0)) call.removeListener("cancelled", listener);
    },
  };
}
