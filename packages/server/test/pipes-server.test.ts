import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { servedApis } from "../src/endpoints.js";
import { startServer } from "../src/server.js";
import { FakePipes } from "./pipes-fake.js";
import { RawGrpcClient } from "./raw-grpc.js";

const PERMISSION_DENIED = 7;

// The server's named-pipe transport end to end on Linux: the real server, policy and groups on
// the simulated node, with the Win32 pipe calls faked (the real ones run in the Windows workflow).
describeWithPwsh("startServer on named pipes (Win32 calls faked)", (pwsh) => {
  it("serves every endpoint on upstream's pipe name with the SYSTEM+Administrators DACL", async () => {
    process.env.CSI_WINSIM_PWSH = pwsh;
    const pipes = new FakePipes();
    const audit: string[] = [];
    const server = await startServer({
      simulate: true,
      policy: "v1-compatible",
      namedPipes: { api: pipes, sids: ["S-1-5-21-1-2-3-1001"] },
      audit: (line) => audit.push(line),
    });
    const clients: RawGrpcClient[] = [];
    try {
      for (const api of servedApis) {
        const name = `\\\\.\\pipe\\${api.endpoint}`;
        expect(server.endpoints[`${api.group}-${api.version}`]).toBe(name);
        expect(pipes.listening(name)).toBe(true);
        expect(new Set(pipes.sddlOf(name))).toEqual(
          new Set(["D:P(A;;GA;;;SY)(A;;GA;;;BA)(A;;GRGW;;;S-1-5-21-1-2-3-1001)"]),
        );
      }
      const name = server.endpoints["system-v1alpha1"] ?? "";
      const client = new RawGrpcClient(
        name,
        "system/v1alpha1/api.proto",
        "v1alpha1.System",
        undefined,
        () => pipes.dial(name),
      );
      clients.push(client);
      const serial = await client.call("GetBIOSSerialNumber", {});
      expect(serial.code, serial.details).toBe(0);
      expect(audit.at(-1)).toContain('"decision":"allow"');
    } finally {
      for (const client of clients) client.close();
      await server.close();
    }
    for (const api of servedApis)
      expect(pipes.listening(`\\\\.\\pipe\\${api.endpoint}`)).toBe(false);
  });

  it("a policy still decides on a pipe: a method not granted is PERMISSION_DENIED", async () => {
    process.env.CSI_WINSIM_PWSH = pwsh;
    const policy = join(mkdtempSync(join(tmpdir(), "csi-srv-pipes-")), "policy.json");
    const rules = [
      { name: "serial", callers: [{ local: true }], methods: ["system.GetBIOSSerialNumber"] },
    ];
    writeFileSync(policy, JSON.stringify({ version: 1, rules }));
    const pipes = new FakePipes();
    const server = await startServer({
      simulate: true,
      policy,
      namedPipes: { api: pipes },
      audit: () => undefined,
    });
    const name = server.endpoints["system-v1alpha1"] ?? "";
    const client = new RawGrpcClient(
      name,
      "system/v1alpha1/api.proto",
      "v1alpha1.System",
      undefined,
      () => pipes.dial(name),
    );
    try {
      expect((await client.call("StopService", { name: "MSiSCSI" })).code).toBe(PERMISSION_DENIED);
    } finally {
      client.close();
      await server.close();
    }
  });

  it("refuses an extra SID that would open the pipes to everyone, before anything listens", async () => {
    process.env.CSI_WINSIM_PWSH = pwsh;
    const pipes = new FakePipes();
    await expect(
      startServer({
        simulate: true,
        policy: "v1-compatible",
        namedPipes: { api: pipes, sids: ["WD"] },
      }),
    ).rejects.toThrow(/WD|Everyone/);
    expect(pipes.calls).toEqual([]);
  });
});
