import { Disk } from "@csi-proxy/disk";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { buildScenario } from "@csi-proxy/winsim";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { fit, hostile, without } from "./corpus.js";
import { useProofHost, type ProofHost } from "./proof-host.js";
import { proveValue, useStartCounter } from "./prove.js";

const gib = 1024 ** 3;
const runs = { numRuns: 15 };

describeWithPwsh("injection: every string parameter of Disk", (pwsh) => {
  const get = useProofHost(pwsh, { disks: [{ number: 1, size: gib }] });
  const started = useStartCounter();
  let host: ProofHost;
  let disk: Disk;

  beforeAll(() => {
    host = get();
    disk = new Disk({ shell: host.shell });
  });

  it("page83: a disk whose ASCII identifier is the payload is found by exactly that value", async () => {
    // Page 83 ASCII identifiers are printable ASCII, at most 255 bytes long.
    const ids = hostile
      .map(without(/[^\x21-\x7e]/g))
      .map(fit(200))
      .filter((id) => id !== "");
    await fc.assert(
      fc.asyncProperty(ids, async (page83) => {
        const built = buildScenario(
          { systemDisk: false, disks: [{ number: 1, size: gib, page83: { ascii: page83 } }] },
          host.sim.root,
        ).state;
        host.sim.update((state) => {
          const target = state.disks.find((d) => d.number === 1);
          const source = built.disks.find((d) => d.number === 1);
          if (target !== undefined && source !== undefined) target.deviceIds = source.deviceIds;
        });
        let found: number | undefined;
        const lookup = async () => {
          found = (await disk.getDiskNumberByPage83({ page83 })).diskNumber;
        };
        expect(await proveValue(host, started, lookup, undefined)).toBe("ok");
        expect(found).toBe(1);
      }),
      runs,
    );
  });

  it("page83: any other hostile value runs nothing and fails typed", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, async (page83) => {
        const code = await proveValue(
          host,
          started,
          () => disk.getDiskNumberByPage83({ page83: `${page83}\u00e9` }),
          undefined,
        );
        expect(code).not.toBe("ok");
      }),
      runs,
    );
  });
});
