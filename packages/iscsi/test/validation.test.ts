import { describe, expect, it, vi } from "vitest";
import { Iscsi } from "../src/iscsi.js";
import { failure, iqn, setup, targetPortal } from "./helpers.js";

type Call = (iscsi: Iscsi, value: unknown) => Promise<unknown>;

// Every method that takes a portal, called with `value` as its targetPortal.
const portalMethods: Record<string, Call> = {
  addTargetPortal: (i, p) => i.addTargetPortal({ targetPortal: p } as never),
  discoverTargetPortal: (i, p) => i.discoverTargetPortal({ targetPortal: p } as never),
  removeTargetPortal: (i, p) => i.removeTargetPortal({ targetPortal: p } as never),
  connectTarget: (i, p) => i.connectTarget({ targetPortal: p, iqn, authType: "NONE" } as never),
  disconnectTarget: (i, p) => i.disconnectTarget({ targetPortal: p, iqn } as never),
  getTargetDisks: (i, p) => i.getTargetDisks({ targetPortal: p, iqn } as never),
};

// Every method that takes an IQN, called with `value` as its iqn.
const iqnMethods: Record<string, Call> = {
  connectTarget: (i, q) => i.connectTarget({ targetPortal, iqn: q, authType: "NONE" } as never),
  disconnectTarget: (i, q) => i.disconnectTarget({ targetPortal, iqn: q } as never),
  getTargetDisks: (i, q) => i.getTargetDisks({ targetPortal, iqn: q } as never),
};

async function rejectedBeforeHost(call: Call, value: unknown): Promise<void> {
  const { host, iscsi } = setup();
  const error = await failure(call(iscsi, value));
  expect(error.code).toBe("INVALID_ARGUMENT");
  expect(host.calls).toEqual([]);
}

describe("portals are validated before any host call", () => {
  const badPortals: unknown[] = [
    undefined,
    null,
    "10.0.0.5",
    { targetPort: 3260 },
    { targetAddress: "" },
    { targetAddress: 10 },
    { targetAddress: "10.0.0.5 ; Remove-Item C:\\" },
    { targetAddress: "host name" },
    { targetAddress: "array\u0000.example" },
    { targetAddress: "array\n.example" },
    { targetAddress: "$(calc).example" },
    { targetAddress: "10.0.0.5:3260" },
    { targetAddress: "iscsi://10.0.0.5" },
    { targetAddress: "-array.example" },
    { targetAddress: "300.1.1.1" },
    { targetAddress: "1.2.3" },
    { targetAddress: "[10.0.0.5]" },
    { targetAddress: "a".repeat(64) + ".example" },
    { targetAddress: "10.0.0.5", targetPort: -1 },
    { targetAddress: "10.0.0.5", targetPort: 65536 },
    { targetAddress: "10.0.0.5", targetPort: 3260.5 },
    { targetAddress: "10.0.0.5", targetPort: "3260" },
    { targetAddress: "10.0.0.5", targetPort: Number.NaN },
    { targetAddress: "10.0.0.5", targetPort: null },
  ];
  for (const [name, call] of Object.entries(portalMethods)) {
    it.each(badPortals.map((p) => [p]))(`${name} rejects targetPortal %j`, (value) =>
      rejectedBeforeHost(call, value),
    );
  }

  it.each([
    ["array.example.com", "array.example.com"],
    ["ARRAY-1.example.com.", "ARRAY-1.example.com."],
    ["localhost", "localhost"],
    ["192.168.1.20", "192.168.1.20"],
    ["fd00::20", "fd00::20"],
    ["[fd00::20]", "fd00::20"],
  ])("accepts the address %s", async (targetAddress, sent) => {
    const { host, iscsi } = setup();
    await iscsi.removeTargetPortal({ targetPortal: { targetAddress, targetPort: 3260 } });
    expect(host.calls).toEqual([
      { method: "removeTargetPortal", args: [{ address: sent, port: 3260 }] },
    ]);
  });

  it.each([
    [0, 3260],
    [undefined, 3260],
    [1, 1],
    [3260, 3260],
    [65535, 65535],
  ])("maps port %s to %s", async (targetPort, port) => {
    const { host, iscsi } = setup();
    const portalRequest =
      targetPort === undefined
        ? { targetAddress: "10.0.0.5" }
        : { targetAddress: "10.0.0.5", targetPort };
    await iscsi.removeTargetPortal({ targetPortal: portalRequest });
    expect(host.calls[0]?.args).toEqual([{ address: "10.0.0.5", port }]);
  });
});

describe("IQNs are validated before any host call", () => {
  const badIqns: unknown[] = [
    undefined,
    "",
    42,
    "vol1",
    "iqn.2005-13.org.example:vol1",
    "iqn.05-10.org.example",
    "iqn.2005-10.org.example:vol 1",
    "iqn.2005-10.org.example:vol1\n",
    " iqn.2005-10.org.example:vol1",
    "iqn.2005-10.org.example:$(calc)",
    "iqn.2005-10.org.example:'x'",
    "eui.02004567A425678",
    "naa.52004567BA64678",
    "iqn.2005-10.org.example:" + "a".repeat(200),
  ];
  for (const [name, call] of Object.entries(iqnMethods)) {
    it.each(badIqns.map((q) => [q]))(`${name} rejects iqn %j`, (value) =>
      rejectedBeforeHost(call, value),
    );
  }

  it.each([
    "iqn.1991-05.com.microsoft:vl-stor1-vl-stor1-it1-target",
    "IQN.2005-10.ORG.EXAMPLE:VOL1",
    "iqn.2000-01.com.synology:ds.target-1.abc_def",
    "eui.02004567A425678D",
    "naa.52004567BA64678D",
    "naa.6001405abcdef0123456789abcdef012",
  ])("accepts %s", async (value) => {
    const { host, iscsi } = setup();
    await iscsi.getTargetDisks({ targetPortal, iqn: value });
    expect(host.calls).toEqual([{ method: "getTargetDisks", args: [value] }]);
  });
});

describe("connectTarget's authentication is validated before any host call", () => {
  const connect: Call = (i, fields) =>
    i.connectTarget({ targetPortal, iqn, ...(fields as object) } as never);

  it.each([
    [{}],
    [{ authType: "none" }],
    [{ authType: "ONEWAYCHAP" }],
    [{ authType: 0 }],
    [{ authType: "toString" }],
    [{ authType: "ONE_WAY_CHAP" }],
    [{ authType: "ONE_WAY_CHAP", chapUsername: "node1" }],
    [{ authType: "ONE_WAY_CHAP", chapSecret: "verysecretpass" }],
    [{ authType: "MUTUAL_CHAP", chapUsername: "", chapSecret: "verysecretpass" }],
    [{ authType: "MUTUAL_CHAP", chapUsername: "node1", chapSecret: 123 }],
    [{ authType: "NONE", chapSecret: "verysecretpass" }],
    [{ authType: "NONE", chapUsername: "node1" }],
    [{ authType: "NONE", isPersistent: "yes" }],
    [{ authType: "NONE", isMultipathEnabled: 1 }],
    [{ authType: "ONE_WAY_CHAP", chapUsername: "node1", chapSecret: "verysecret\u0000pass" }],
  ])("rejects %j", (fields) => rejectedBeforeHost(connect, fields));

  it("accepts empty CHAP fields with NONE (Go zero values)", async () => {
    const { host, iscsi } = setup();
    await iscsi.addTargetPortal({ targetPortal });
    await iscsi.connectTarget({
      targetPortal,
      iqn,
      authType: "NONE",
      chapUsername: "",
      chapSecret: "",
    });
    expect(host.calls[1]?.args).toEqual([
      {
        portal: { address: "10.0.0.5", port: 3260 },
        iqn,
        authenticationType: "NONE",
        chapUsername: "",
        chapSecret: "",
        isPersistent: false,
        isMultipathEnabled: false,
      },
    ]);
  });
});

describe("other requests", () => {
  it.each([[undefined], [null], ["x"], [[]]])("rejects the request %j", async (request) => {
    const { host, iscsi } = setup();
    for (const method of [
      "addTargetPortal",
      "connectTarget",
      "getTargetDisks",
      "setMutualChapSecret",
    ] as const) {
      expect((await failure(iscsi[method](request as never))).code).toBe("INVALID_ARGUMENT");
    }
    expect((await failure(iscsi.listTargetPortals(null as never))).code).toBe("INVALID_ARGUMENT");
    expect(host.calls).toEqual([]);
  });

  it.each([[{}], [{ mutualChapSecret: "" }], [{ mutualChapSecret: 5 }]])(
    "setMutualChapSecret rejects %j",
    async (request) => {
      const { host, iscsi } = setup();
      expect((await failure(iscsi.setMutualChapSecret(request as never))).code).toBe(
        "INVALID_ARGUMENT",
      );
      expect(host.calls).toEqual([]);
    },
  );

  it("Iscsi takes a host or a shell, not both", () => {
    const { host } = setup();
    const shell = { mode: "session" as const, run: vi.fn(), warmUp: vi.fn(), close: vi.fn() };
    expect(() => new Iscsi({ host, shell })).toThrow(/host or a shell/);
    expect(shell.run).not.toHaveBeenCalled();
  });
});
