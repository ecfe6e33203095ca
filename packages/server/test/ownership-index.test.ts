// The ownership index's rules, on fake groups and a clock the test moves (issue #37): a "yes"
// rests only on facts read since the last change and at most the bound before the decision; a
// "no" is read again first; missing and another's volumes cost the same reads; decisions that
// wait together share one listing; grants apply to facts in memory, no hint of any caller in sight.
import type { CallOptions } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import type { NodeGroups } from "../src/handlers/context.js";
import { compileGrants } from "../src/policy/grants.js";
import type { RuleSpec } from "../src/policy/spec.js";
import { OwnershipIndex } from "../src/policy/ownership.js";

const kubelet = "C:\\var\\lib\\kubelet";
const portal = { targetAddress: "10.0.0.5", targetPort: 3260 };
const iqn = (name: string) => `iqn.2003-01.org.example:${name}`;
const vol = (n: number) => `\\\\?\\Volume{0000000${n}-0000-4000-8000-000000000000}\\`;

interface Session {
  iqn: string;
  portals: (typeof portal)[];
  disks: number[];
}

/** A node the test edits: sessions, disk ids, volumes; every listing call is counted. */
function node() {
  const state = {
    sessions: [] as Session[],
    ids: new Map<number, { page83: string; serialNumber: string; isSystemDisk: boolean }>(),
    volumes: new Map<string, number[]>(),
  };
  const calls: string[] = [];
  let gate: Promise<void> | undefined;
  const groups = {
    iscsi: {
      async listSessionDisks(_r: unknown, options: CallOptions) {
        calls.push(`sessions ${String(options.fairnessKey)}`);
        // What the host shows when the call starts; the gate holds only the answer.
        const seen = [...state.sessions];
        await gate;
        return {
          sessions: seen.map((s, i) => ({
            sessionId: `s${i}`,
            iqn: s.iqn,
            targetPortals: s.portals,
            disks: s.disks.map((diskId) => ({ diskId, lun: 0 })),
          })),
        };
      },
    },
    disk: {
      async listDiskIds() {
        calls.push("ids");
        const seen = new Map(state.ids);
        await gate;
        return { diskIds: seen, errors: [] };
      },
    },
    volume: {
      async listVolumeDisks() {
        calls.push("volumes");
        const seen = [...state.volumes];
        await gate;
        return {
          volumes: seen.map(([volumeId, diskNumbers]) => ({ volumeId, diskNumbers })),
        };
      },
    },
  } as unknown as NodeGroups;
  // Each reading of the clock moves it on, as performance.now() does between two statements.
  let now = 1_000;
  const clock = {
    now: () => (now += 0.001),
    pass: (ms: number) => {
      now += ms;
    },
  };
  const hold = () => {
    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    return () => {
      gate = undefined;
      release();
    };
  };
  const index = new OwnershipIndex(groups, { maxFactAgeMs: 2_000, now: clock.now });
  return { state, calls, clock, index, hold };
}

const grantsOf = (rule: Partial<RuleSpec>) =>
  compileGrants([{ name: "r", callers: [{ local: true }], methods: ["*"], ...rule }], kubelet);
const targetsOf = (pattern: string, portals: string[] = ["10.0.0.5"]) =>
  grantsOf({ iscsiPortals: portals, iscsiTargets: [pattern], disks: { ofIscsiTargets: true } });
const A = targetsOf(iqn("a-*"));
const B = targetsOf(iqn("b-*"));
const options: CallOptions = {};

describe("the ownership index", () => {
  it("answers yes from current facts without reading the host, and reads again once they are older than the bound", async () => {
    const { state, calls, clock, index } = node();
    state.sessions.push({ iqn: iqn("a-1"), portals: [portal], disks: [3] });
    expect(await index.diskOwned(A, 3, options)).toBe(true);
    expect(calls).toEqual(["sessions undefined"]);
    clock.pass(1_990);
    expect(await index.diskOwned(A, 3, options)).toBe(true);
    expect(calls).toHaveLength(1);
    clock.pass(20);
    expect(await index.diskOwned(A, 3, options)).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it("reads the host again before every no, so a disk that just arrived is not refused", async () => {
    const { state, calls, index } = node();
    expect(await index.diskOwned(A, 3, options)).toBe(false);
    state.sessions.push({ iqn: iqn("a-1"), portals: [portal], disks: [3] });
    expect(await index.diskOwned(A, 3, options)).toBe(true);
    expect(calls).toHaveLength(2);
    // Another's disk: read again, refused.
    expect(await index.diskOwned(B, 3, options)).toBe(false);
    expect(calls).toHaveLength(3);
  });

  it("trusts nothing read before a change the server made that can free a disk number", async () => {
    const { state, calls, clock, index } = node();
    state.sessions.push({ iqn: iqn("a-1"), portals: [portal], disks: [3] });
    expect(await index.diskOwned(A, 3, options)).toBe(true);
    const end = index.beginChange();
    // A logout in flight: even a fact read a moment ago carries no yes.
    clock.pass(1);
    state.sessions = [{ iqn: iqn("b-1"), portals: [portal], disks: [3] }];
    expect(await index.diskOwned(A, 3, options)).toBe(false);
    end();
    clock.pass(1);
    expect(await index.diskOwned(B, 3, options)).toBe(true);
    expect(await index.diskOwned(A, 3, options)).toBe(false);
    // A disk or volume found missing (the node changed under the server) does the same.
    const reads = calls.length;
    index.noteChange();
    clock.pass(1);
    expect(await index.diskOwned(B, 3, options)).toBe(true);
    expect(calls.length).toBe(reads + 1);
  });

  it("learns from allowed answers at no cost: a GetTargetDisks answer without portals serves a grant of any portal only", async () => {
    const { calls, clock, index } = node();
    const anyPortal = targetsOf(iqn("a-*"), ["*"]);
    index.learnTargetDisks(iqn("a-1"), [5], clock.now());
    clock.pass(10);
    expect(await index.diskOwned(anyPortal, 5, options)).toBe(true);
    expect(calls).toEqual([]);
    // Its portals unknown, it is no yes for a grant that names portals: the listing decides.
    expect(await index.diskOwned(A, 5, options)).toBe(false);
    expect(calls).toHaveLength(1);
  });

  it("applies the portal grant to the portals each session goes through", async () => {
    const { state, index } = node();
    const elsewhere = { targetAddress: "10.0.0.9", targetPort: 3260 };
    state.sessions.push({ iqn: iqn("a-1"), portals: [elsewhere], disks: [3] });
    state.sessions.push({ iqn: iqn("a-2"), portals: [], disks: [4] });
    expect(await index.diskOwned(A, 3, options)).toBe(false);
    expect(await index.diskOwned(A, 4, options)).toBe(false);
    expect(await index.diskOwned(targetsOf(iqn("a-*"), ["10.0.0.9"]), 3, options)).toBe(true);
    expect(await index.diskOwned(targetsOf(iqn("a-*"), ["*"]), 4, options)).toBe(true);
  });

  it("asks the host the same for another's volume as for a missing one, and nothing for its own current one", async () => {
    const { state, calls, index } = node();
    state.sessions.push({ iqn: iqn("a-1"), portals: [portal], disks: [3] });
    state.sessions.push({ iqn: iqn("b-1"), portals: [portal], disks: [4] });
    state.volumes.set(vol(3).toLowerCase(), [3]);
    state.volumes.set(vol(4).toLowerCase(), [4]);
    expect(await index.volumeOwned(A, vol(3), options)).toBe(true);
    const before = calls.length;
    expect(await index.volumeOwned(A, vol(3), options)).toBe(true);
    expect(calls.length).toBe(before);
    const asked = async (volumeId: string) => {
      const from = calls.length;
      expect(await index.volumeOwned(A, volumeId, options)).toBe(false);
      return calls.slice(from);
    };
    const others = await asked(vol(4));
    expect(others).toEqual(["sessions undefined", "volumes"]);
    expect(await asked(vol(9))).toEqual(others);
  });

  it("grants by page 83 id from one listing of the disks' ids, kept within the bound", async () => {
    const { state, calls, index } = node();
    const byPage83 = grantsOf({ disks: { page83: ["6001405aaaa*"] } });
    state.ids.set(7, { page83: "6001405aaaa01", serialNumber: "", isSystemDisk: false });
    state.ids.set(8, { page83: "6001405bbbb01", serialNumber: "", isSystemDisk: false });
    expect(await index.diskOwned(byPage83, 7, options)).toBe(true);
    expect(calls).toEqual(["ids"]);
    expect(await index.diskOwned(byPage83, 7, options)).toBe(true);
    expect(calls).toEqual(["ids"]);
    expect(await index.disksOwned(byPage83, [7, 8], options)).toEqual(new Set([7]));
    expect(calls).toEqual(["ids", "ids"]);
  });

  it("never grants the node's boot or system disk by an id pattern it matches", async () => {
    const { state, index } = node();
    // The EBS root volume and a data volume: both `vol…` serials, one pattern (issue #34).
    const bySerial = grantsOf({ disks: { serialNumbers: ["vol*"] } });
    state.ids.set(0, { page83: "", serialNumber: "vol0aaaa", isSystemDisk: true });
    state.ids.set(1, { page83: "", serialNumber: "vol0bbbb", isSystemDisk: false });
    expect(await index.diskOwned(bySerial, 0, options)).toBe(false);
    expect(await index.diskOwned(bySerial, 1, options)).toBe(true);
    expect(await index.disksOwned(bySerial, [0, 1], options)).toEqual(new Set([1]));
    // Its volumes are not the caller's either.
    state.volumes.set(vol(0).toLowerCase(), [0]);
    expect(await index.volumeOwned(bySerial, vol(0), options)).toBe(false);
  });

  it("lets decisions that wait together share one listing, and never serves a no from one begun before it", async () => {
    const { state, calls, index, hold } = node();
    const release = hold();
    const first = index.diskOwned(A, 3, options);
    while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    // Begun before the disk arrived: it may not refuse the decisions that come after the arrival.
    state.sessions.push({ iqn: iqn("a-1"), portals: [portal], disks: [3] });
    const later = Array.from({ length: 50 }, (_, i) => index.diskOwned(i % 2 ? A : B, 3, options));
    release();
    // The first may see either listing: the disk was A's from the moment it arrived.
    expect(typeof (await first)).toBe("boolean");
    expect(await Promise.all(later)).toEqual(Array.from({ length: 50 }, (_, i) => i % 2 === 1));
    expect(calls).toHaveLength(2);
  });

  it("takes a yes from a listing under way rather than starting another", async () => {
    const { state, calls, index, hold } = node();
    state.sessions.push({ iqn: iqn("a-1"), portals: [portal], disks: [3] });
    const release = hold();
    const first = index.diskOwned(A, 3, options);
    while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const second = index.diskOwned(A, 3, options);
    release();
    expect([await first, await second]).toEqual([true, true]);
    expect(calls).toHaveLength(1);
  });

  it("reads in the caller's own pool lane: another set never waits for a listing queued in it, and uses what it read", async () => {
    const { state, calls, index, hold } = node();
    state.sessions.push({ iqn: iqn("b-1"), portals: [portal], disks: [4] });
    const release = hold();
    // A's refusal's listing is held (as if queued behind A's own slow calls).
    const refusedA = index.diskOwned(A, 4, { fairnessKey: "a" });
    while (calls.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const moreA = index.diskOwned(A, 4, { fairnessKey: "a" });
    // B's decision neither joins A's listing nor waits for it: it reads in its own lane.
    const ownB = index.diskOwned(B, 4, { fairnessKey: "b" });
    while (calls.length < 2) await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toEqual(["sessions a", "sessions b"]);
    release();
    expect([await refusedA, await moreA, await ownB]).toEqual([false, false, true]);
    expect(calls).toHaveLength(2);
    // What either lane read serves every caller's next "yes" within the bound.
    expect(await index.diskOwned(B, 4, { fairnessKey: "b" })).toBe(true);
    expect(await index.diskOwned(B, 4, {})).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it("stops waiting at the caller's deadline while the shared listing goes on for the others", async () => {
    const { index, hold } = node();
    const release = hold();
    const waiting = index.diskOwned(A, 3, { timeoutMs: 20 });
    await expect(waiting).rejects.toMatchObject({ code: "TIMEOUT" });
    const other = index.diskOwned(A, 3, options);
    release();
    expect(await other).toBe(false);
  });

  it("keeps no per-caller state: a caller naming thousands of targets changes nothing for another", async () => {
    const { state, clock, index } = node();
    state.sessions.push({ iqn: iqn("b-1"), portals: [portal], disks: [4] });
    for (let i = 0; i < 5_000; i++) index.learnTargetDisks(iqn(`a-${i}`), [], clock.now());
    expect(await index.diskOwned(B, 4, options)).toBe(true);
  });
});
