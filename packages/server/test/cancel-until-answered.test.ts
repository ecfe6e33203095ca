// grpc-js says `cancelled` at the end of every call, answered or not: an answered call's library
// signal must not be aborted then (it ran an abort per call for nothing); a call still running is.
import { EventEmitter } from "node:events";
import { callOptionsFromGrpcCall } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cancelledUntilAnswered } from "../src/cancel-until-answered.js";
import { startServer } from "../src/server.js";
import { RawGrpcClient } from "./raw-grpc.js";

class FakeCall extends EventEmitter {
  cancelled = false;
  getDeadline(): number {
    return Number.POSITIVE_INFINITY;
  }
  end(): void {
    this.cancelled = true;
    this.emit("cancelled");
  }
}

describe("cancelledUntilAnswered", () => {
  it("a call cancelled while it runs aborts the library's signal", () => {
    const call = new FakeCall();
    const { signal } = callOptionsFromGrpcCall(cancelledUntilAnswered(call).call);
    call.end();
    expect(signal.aborted).toBe(true);
  });

  it("the end of an answered call does not", () => {
    const call = new FakeCall();
    const served = cancelledUntilAnswered(call);
    const { signal } = callOptionsFromGrpcCall(served.call);
    served.answered();
    call.end();
    expect(signal.aborted).toBe(false);
    expect(call.listenerCount("cancelled")).toBe(0);
  });

  it("a call already cancelled before its options are built is aborted at once", () => {
    const call = new FakeCall();
    call.cancelled = true;
    expect(callOptionsFromGrpcCall(cancelledUntilAnswered(call).call).signal.aborted).toBe(true);
  });
});

describeWithPwsh("the server's answered calls", (pwsh) => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("abort no library signal when grpc-js ends them", async () => {
    process.env.CSI_WINSIM_PWSH = pwsh;
    const server = await startServer({
      simulate: true,
      policy: "v1-compatible",
      socketDir: `${process.env.TMPDIR ?? "/tmp"}/csi-answered-${process.pid}-${Date.now()}`,
      audit: () => undefined,
    });
    const client = new RawGrpcClient(
      server.endpoints["system-v1alpha1"] ?? "",
      "system/v1alpha1/api.proto",
      "v1alpha1.System",
    );
    try {
      const abort = vi.spyOn(AbortController.prototype, "abort");
      for (let i = 0; i < 3; i++)
        expect((await client.call("GetBIOSSerialNumber", {})).code).toBe(0);
      // grpc-js says `cancelled` on the tick after the answer's status: let it.
      await new Promise((resolve) => setTimeout(resolve, 50));
      const cancels = abort.mock.calls.filter(
        ([reason]) => reason instanceof Error && /gRPC call was cancelled/.test(reason.message),
      );
      expect(cancels).toEqual([]);
    } finally {
      client.close();
      await server.close();
    }
  });
});
