import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import {
  callOptionsFromGrpcCall,
  callOptionsFromNiceGrpc,
  CsiProxyError,
  grpcStatusByErrorCode,
  grpcStatusCodes,
  grpcStatusOf,
  type CsiProxyErrorCode,
} from "../src/index.js";

class FakeCall extends EventEmitter {
  cancelled = false;
  constructor(private readonly deadline: Date | number) {
    super();
  }
  getDeadline(): Date | number {
    return this.deadline;
  }
}

describe("grpcStatusOf", () => {
  it.each<[CsiProxyErrorCode, string, number]>([
    ["INVALID_ARGUMENT", "INVALID_ARGUMENT", 3],
    ["NOT_FOUND", "NOT_FOUND", 5],
    ["ALREADY_EXISTS", "ALREADY_EXISTS", 6],
    ["PERMISSION_DENIED", "PERMISSION_DENIED", 7],
    ["FAILED_PRECONDITION", "FAILED_PRECONDITION", 9],
    ["TIMEOUT", "DEADLINE_EXCEEDED", 4],
    ["ABORTED", "CANCELLED", 1],
    ["CONFLICT", "ABORTED", 10],
    ["PROCESS_EXITED", "UNAVAILABLE", 14],
    ["UNSUPPORTED", "UNIMPLEMENTED", 12],
    ["COMMAND_FAILED", "INTERNAL", 13],
  ])("maps %s to %s (%d)", (code, name, number) => {
    expect(grpcStatusOf(new CsiProxyError("x", { code }))).toEqual({ code: number, name });
  });

  it("has a row for every error code, each a real gRPC status", () => {
    for (const [code, name] of Object.entries(grpcStatusByErrorCode)) {
      expect(grpcStatusCodes[name], code).toBeTypeOf("number");
    }
    expect(Object.keys(grpcStatusByErrorCode)).toHaveLength(13);
  });

  it("answers UNKNOWN for anything that is not a csi-proxy error", () => {
    expect(grpcStatusOf(new Error("boom"))).toEqual({ code: 2, name: "UNKNOWN" });
    expect(grpcStatusOf("text")).toEqual({ code: 2, name: "UNKNOWN" });
    const foreign = Object.assign(new Error("x"), { code: "NOT_FOUND" });
    expect(grpcStatusOf(foreign).name).toBe("UNKNOWN");
  });
});

describe("callOptionsFromGrpcCall", () => {
  it("turns the client's deadline into an absolute deadline less the margin", () => {
    const at = new Date(Date.now() + 10_000);
    const options = callOptionsFromGrpcCall(new FakeCall(at), { marginMs: 500 });
    expect(options.deadline).toBe(at.getTime() - 500);
    expect(options.signal.aborted).toBe(false);
  });

  it("sets no deadline when the client set none (Infinity)", () => {
    expect(callOptionsFromGrpcCall(new FakeCall(Infinity))).not.toHaveProperty("deadline");
  });

  it("aborts the signal when the client cancels, and at once if it already has", () => {
    const call = new FakeCall(Infinity);
    const options = callOptionsFromGrpcCall(call);
    call.emit("cancelled");
    expect(options.signal.aborted).toBe(true);
    const gone = Object.assign(new FakeCall(Infinity), { cancelled: true });
    expect(callOptionsFromGrpcCall(gone).signal.aborted).toBe(true);
  });

  it("refuses a negative margin", () => {
    expect(() => callOptionsFromGrpcCall(new FakeCall(Infinity), { marginMs: -1 })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});

describe("callOptionsFromNiceGrpc", () => {
  it("passes the context's signal, which already covers the deadline", () => {
    const signal = new AbortController().signal;
    expect(callOptionsFromNiceGrpc({ signal })).toEqual({ signal });
  });
});
