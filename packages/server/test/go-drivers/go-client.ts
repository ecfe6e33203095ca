// What a Go driver sees of csi-proxy: upstream's generated v1 clients return (response, err),
// err being a grpc-go status error whose Error() is `rpc error: code = <Code> desc = <details>`.
// The drivers match their regexps on that text. Calls go over test/raw-grpc.ts, a client built
// without the server's code, on the driver's endpoint set.
import type { Message } from "../../src/handlers/context.js";
import type { RunningBin } from "../harness.js";
import type { RawGrpcClient } from "../raw-grpc.js";

// grpc-go's codes.Code String() names (the server's metrics have their own copy: this client
// shares no code with the server).
const codeNames = [
  "OK",
  "Canceled",
  "Unknown",
  "InvalidArgument",
  "DeadlineExceeded",
  "NotFound",
  "AlreadyExists",
  "PermissionDenied",
  "ResourceExhausted",
  "FailedPrecondition",
  "Aborted",
  "OutOfRange",
  "Unimplemented",
  "Internal",
  "Unavailable",
  "DataLoss",
  "Unauthenticated",
];

/** A failed csi-proxy call as the Go client returns it. */
export class GoStatusError extends Error {
  constructor(
    readonly code: number,
    readonly details: string,
  ) {
    super(`rpc error: code = ${codeNames[code] ?? `Code(${code})`} desc = ${details}`);
  }
}

/** A CSI error the driver answers kubelet with (`status.Error(codes.Internal, ...)`). */
export class CsiError extends Error {
  constructor(
    readonly code: "Internal" | "NotFound" | "FailedPrecondition" | "Unavailable",
    message: string,
  ) {
    super(`${code}: ${message}`);
  }
}

/** The csi-proxy endpoints one driver's pod can dial: its endpoint set's, or upstream's names. */
export class GoNode {
  readonly #bin: RunningBin;
  readonly #set: string | undefined;
  readonly #clients = new Map<string, RawGrpcClient>();

  constructor(bin: RunningBin, set: string | undefined) {
    this.#bin = bin;
    this.#set = set;
  }

  /** The simulated node's folder for drive C:. */
  get root(): string {
    return this.#bin.ready.simulator.root;
  }

  /** Calls `<group>-<version>` `method`; a failure throws {@link GoStatusError}. */
  async call(endpoint: string, method: string, request: Message = {}): Promise<Message> {
    const key = this.#set === undefined ? endpoint : `${this.#set}/${endpoint}`;
    let client = this.#clients.get(key);
    if (client === undefined) {
      client = this.#bin.client(key);
      this.#clients.set(key, client);
    }
    const reply = await client.call(method, request);
    if (reply.code !== 0) throw new GoStatusError(reply.code, reply.details);
    return reply.message ?? {};
  }
}

/** `status.Errorf(codes.Internal, "...: %v", err)` for any error but a CSI one. */
export function internal(what: string, error: unknown): CsiError {
  if (error instanceof CsiError) return error;
  return new CsiError(
    "Internal",
    `${what}: ${error instanceof Error ? error.message : String(error)}`,
  );
}

/**
 * kubelet's retries of one CSI call: again after each failure (up to `attempts`), as the
 * operation executor does with backoff. Returns the failures seen before it succeeded.
 */
export async function kubelet(operation: () => Promise<void>, attempts = 3): Promise<CsiError[]> {
  const failures: CsiError[] = [];
  for (let attempt = 1; ; attempt++) {
    try {
      await operation();
      return failures;
    } catch (error) {
      if (!(error instanceof CsiError) || attempt >= attempts) throw error;
      failures.push(error);
    }
  }
}
