import { describe, expect, it } from "vitest";
import { parseIqn, parseTargetPortal } from "../src/index.js";
import { FakeIscsiHost } from "./fake-host.js";
import { Iscsi } from "../src/index.js";

describe("validators for gRPC handlers", () => {
  it.each(["iqn.2005-10.org.example:vol1", "eui.0123456789ABCDEF", "naa.60a98000486e2f34"])(
    "parseIqn accepts %s",
    (iqn) => {
      expect(parseIqn(iqn)).toBe(iqn);
    },
  );

  it.each(["", "iqn.2005-13.org.example:x", "vol1", "iqn.2005-10.org.example:a b", 7, undefined])(
    "parseIqn refuses %j as connectTarget does",
    async (iqn) => {
      expect(() => parseIqn(iqn)).toThrow(expect.objectContaining({ code: "INVALID_ARGUMENT" }));
      const host = new FakeIscsiHost();
      const iscsi = new Iscsi({ host });
      await expect(
        iscsi.connectTarget({ targetPortal: { targetAddress: "10.0.0.5" }, iqn } as never),
      ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      expect(host.methods()).toEqual([]);
    },
  );

  it("parseTargetPortal applies the default port and refuses what the methods refuse", () => {
    expect(parseTargetPortal({ targetAddress: "san1.example" })).toEqual({
      address: "san1.example",
      port: 3260,
    });
    expect(parseTargetPortal({ targetAddress: "[fd00::5]", targetPort: 3261 })).toEqual({
      address: "fd00::5",
      port: 3261,
    });
    for (const bad of [
      null,
      {},
      { targetAddress: "a b" },
      { targetAddress: "x", targetPort: 70_000 },
    ]) {
      expect(() => parseTargetPortal(bad)).toThrow(
        expect.objectContaining({ code: "INVALID_ARGUMENT" }),
      );
    }
  });
});
