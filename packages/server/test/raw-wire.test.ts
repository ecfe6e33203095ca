// Issue 34 items 4, 5 and 6 with a client that has no gRPC library (raw-grpc.ts, node:http2):
// what the grpc-go suite shows again, here without the authority rewrite in the way.
import { once } from "node:events";
import { connect as connectHttp2, constants } from "node:http2";
import { connect } from "node:net";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServer, type RunningServer } from "../src/server.js";
import { RawGrpcClient } from "./raw-grpc.js";

const kubelet = "C:\\var\\lib\\kubelet";

describeWithPwsh("raw HTTP/2 clients on the wire", (pwsh) => {
  let server: RunningServer;
  let client: RawGrpcClient;

  beforeAll(async () => {
    process.env.CSI_WINSIM_PWSH = pwsh;
    server = await startServer({
      simulate: true,
      policy: "v1-compatible",
      socketDir: `${process.env.TMPDIR ?? "/tmp"}/csi-raw-wire-${process.pid}-${Date.now()}`,
      audit: () => undefined,
    });
    client = new RawGrpcClient(
      server.endpoints["filesystem-v1"] ?? "",
      "filesystem/v1/api.proto",
      "v1.Filesystem",
    );
    expect((await client.call("PathExists", { path: kubelet })).code).toBe(0);
  });

  afterAll(async () => {
    client.close();
    await server.close();
  });

  it("deadlines of 100 to 250 ms are served, not refused as already past", async () => {
    for (const timeoutMs of [100, 200, 250]) {
      const reply = await client.call("PathExists", { path: kubelet }, { timeoutMs });
      expect(reply, `${timeoutMs} ms: ${reply.details}`).toMatchObject({
        code: 0,
        message: { exists: true },
      });
    }
  });

  it("a ping flood gets GOAWAY ENHANCE_YOUR_CALM too_many_pings", async () => {
    const endpoint = server.endpoints["filesystem-v1"] ?? "";
    const session = connectHttp2("http://localhost", { createConnection: () => connect(endpoint) });
    session.on("error", () => undefined);
    const goaway = new Promise<[number, number, Buffer | undefined]>((resolve) =>
      session.once("goaway", (...args: [number, number, Buffer | undefined]) => resolve(args)),
    );
    await once(session, "connect");
    for (let i = 0; i < 10 && !session.destroyed; i += 1) {
      await new Promise((resolve) => {
        try {
          session.ping(resolve);
        } catch {
          resolve(undefined);
        }
      });
    }
    const [code, , data] = await Promise.race([
      goaway,
      new Promise<[number, number, undefined]>((resolve) =>
        setTimeout(() => resolve([-1, 0, undefined]), 5_000),
      ),
    ]);
    expect([code, data?.toString()]).toEqual([
      constants.NGHTTP2_ENHANCE_YOUR_CALM,
      "too_many_pings",
    ]);
    session.destroy();
  });

  it("under --simulate a status's details name the Windows path asked about", async () => {
    const path = `${kubelet}\\plugins\\no-such-folder`;
    const reply = await client.call("Rmdir", { path });
    expect(reply.code).toBe(5);
    expect(reply.details).toContain(path);
    expect(reply.details).not.toContain(server.simulator?.root ?? "?");
    expect(reply.details).not.toContain("/proc/self/fd");
  });
});
