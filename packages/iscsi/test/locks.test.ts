import { describe, expect, it } from "vitest";
import type { IscsiHost } from "../src/host.js";
import { Iscsi } from "../src/iscsi.js";
import { FakeIscsiHost } from "./fake-host.js";
import { iqn, portal, targetPortal } from "./helpers.js";

/** A host whose calls of `method` wait until released, recording how many ran at once. */
function gatedHost(method: keyof IscsiHost) {
  const host = new FakeIscsiHost().serve(portal, [{ iqn, disks: [1] }]);
  host.portals.push({ ...portal });
  let running = 0;
  let peak = 0;
  const waiting: (() => void)[] = [];
  let entered = 0;
  host.hook = async (called) => {
    if (called !== method) return;
    entered++;
    running++;
    peak = Math.max(peak, running);
    await new Promise<void>((resolve) => waiting.push(resolve));
    running--;
  };
  const releaseAll = async () => {
    while (waiting.length > 0 || running > 0) {
      waiting.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return { host, peak: () => peak, entered: () => entered, releaseAll, settle };
}

describe("keyed locks", () => {
  it("never overlaps two calls on one target, whatever the IQN's case or the instance", async () => {
    const gate = gatedHost("getTargetDisks");
    const a = new Iscsi({ host: gate.host });
    const b = new Iscsi({ host: gate.host });
    const calls = [
      a.getTargetDisks({ targetPortal, iqn }),
      b.getTargetDisks({ targetPortal, iqn: iqn.toUpperCase() }),
      a.getTargetDisks({ targetPortal: { targetAddress: "10.0.0.5" }, iqn }),
    ];
    await gate.settle();
    expect(gate.entered()).toBe(1);
    await gate.releaseAll();
    await Promise.all(calls);
    expect(gate.peak()).toBe(1);
    expect(gate.entered()).toBe(3);
  });

  it("runs calls on different targets in parallel", async () => {
    const gate = gatedHost("getTargetDisks");
    const iscsi = new Iscsi({ host: gate.host });
    const calls = [
      iscsi.getTargetDisks({ targetPortal, iqn }),
      iscsi.getTargetDisks({ targetPortal, iqn: "iqn.2005-10.org.example:other" }),
    ];
    await gate.settle();
    expect(gate.entered()).toBe(2);
    await gate.releaseAll();
    await Promise.all(calls);
    expect(gate.peak()).toBe(2);
  });

  it("serialises connect and disconnect of one target", async () => {
    const gate = gatedHost("connectTarget");
    const iscsi = new Iscsi({ host: gate.host });
    const connect = iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" });
    await gate.settle();
    const disconnect = iscsi.disconnectTarget({ targetPortal, iqn });
    await gate.settle();
    expect(gate.host.methods()).toEqual(["connectTarget"]);
    await gate.releaseAll();
    await Promise.all([connect, disconnect]);
    expect(gate.host.methods()).toEqual(["connectTarget", "disconnectTarget"]);
    expect(gate.host.sessions).toEqual([]);
  });

  it("serialises work on one portal and runs different portals in parallel", async () => {
    const gate = gatedHost("addTargetPortal");
    gate.host.serve({ address: "10.0.1.5", port: 3260 }, []);
    gate.host.serve({ address: "array.example", port: 3260 }, []);
    const iscsi = new Iscsi({ host: gate.host });
    const calls = [
      iscsi.addTargetPortal({ targetPortal: { targetAddress: "ARRAY.example" } }),
      iscsi.addTargetPortal({ targetPortal: { targetAddress: "array.example", targetPort: 3260 } }),
      iscsi.addTargetPortal({ targetPortal: { targetAddress: "10.0.1.5" } }),
    ];
    await gate.settle();
    expect(gate.entered()).toBe(2);
    await gate.releaseAll();
    await Promise.all(calls);
    expect(gate.entered()).toBe(3);
    expect(gate.host.portals).toHaveLength(3);
    expect(gate.peak()).toBe(2);
  });
});
