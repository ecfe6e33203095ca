import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBin, type RunningBin } from "./harness.js";
import type { Reply } from "./raw-grpc.js";

const kubelet = "C:\\var\\lib\\kubelet";
// Bounded: this many callers, each on its own connection, each sending every request this many times.
const callers = 4;
const rounds = 2;

interface Probe {
  readonly endpoint: string;
  readonly method: string;
  readonly request: Record<string, unknown>;
}

// Requests whose answers differ from one another, so a response given to the wrong call shows.
function probes(diskNumbers: readonly number[]): Probe[] {
  const paths = Array.from({ length: 8 }, (_, i) => ({
    endpoint: "filesystem-v1",
    method: "PathExists",
    request: { path: `${kubelet}\\load\\${i}` },
  }));
  const disks = diskNumbers.map((n) => ({
    endpoint: "disk-v1",
    method: "GetDiskStats",
    request: { disk_number: n },
  }));
  const services = ["MSiSCSI", "W32Time", "NoSuchSvc"].map((name) => ({
    endpoint: "system-v1alpha1",
    method: "GetService",
    request: { name },
  }));
  return [...paths, ...disks, ...services];
}

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

const answer = (reply: Reply) => ({ code: reply.code, message: reply.message });

describeWithPwsh("concurrent callers (loopback sockets, bounded)", (pwsh) => {
  let bin: RunningBin;

  beforeAll(async () => {
    bin = await startBin(pwsh, ["--simulate", "--policy", "v1-compatible"]);
    const fs = bin.client("filesystem-v1");
    // Half the probed paths exist.
    for (let i = 0; i < 8; i += 2) {
      expect((await fs.call("Mkdir", { path: `${kubelet}\\load\\${i}` })).code).toBe(0);
    }
  });

  afterAll(async () => {
    expect(await bin.stop()).toBe(0);
  });

  it("every call gets its own answer: none lost, none given to another call", async () => {
    const ids = await bin.client("disk-v1").call("ListDiskIDs", {});
    const diskNumbers = Object.keys(
      (ids.message as { diskIDs?: Record<string, unknown> } | undefined)?.diskIDs ?? {},
    ).map(Number);
    expect(diskNumbers.length).toBeGreaterThan(1);
    const all = probes(diskNumbers);
    // The answers one at a time are the reference.
    const reference = new Map<Probe, ReturnType<typeof answer>>();
    for (const probe of all) {
      reference.set(
        probe,
        answer(await bin.client(probe.endpoint).call(probe.method, probe.request)),
      );
    }
    expect(new Set([...reference.values()].map((a) => JSON.stringify(a))).size).toBeGreaterThan(4);
    const mismatches: string[] = [];
    let answered = 0;
    await Promise.all(
      Array.from({ length: callers }, async (_, caller) => {
        const clients = new Map(
          ["filesystem-v1", "disk-v1", "system-v1alpha1"].map((e) => [e, bin.client(e)]),
        );
        const work = shuffled(Array.from({ length: rounds }, () => all).flat(), caller + 1);
        await Promise.all(
          work.map(async (probe) => {
            const client = clients.get(probe.endpoint);
            if (client === undefined) throw new Error(probe.endpoint);
            const got = answer(await client.call(probe.method, probe.request));
            answered += 1;
            const want = reference.get(probe);
            if (JSON.stringify(got) !== JSON.stringify(want)) {
              mismatches.push(
                `${probe.method} ${JSON.stringify(probe.request)}: ${JSON.stringify(got)}`,
              );
            }
          }),
        );
      }),
    );
    expect(mismatches).toEqual([]);
    expect(answered).toBe(callers * rounds * all.length);
  });
});
