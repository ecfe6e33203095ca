import { mkdirSync } from "node:fs";
import { normalizePath } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Volume } from "@csi-proxy/volume";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { fit, hostile, without, withoutControl, withoutNul } from "./corpus.js";
import { useProofHost, type ProofHost } from "./proof-host.js";
import { proveValue, useStartCounter } from "./prove.js";

const gib = 1024 ** 3;
const runs = { numRuns: 20 };

describeWithPwsh("injection: every string parameter of Volume", (pwsh) => {
  const get = useProofHost(pwsh, {
    disks: [{ number: 1, size: gib, partitionStyle: "GPT", partitions: [{ fileSystem: "NTFS" }] }],
  });
  const started = useStartCounter();
  let host: ProofHost;
  let volume: Volume;
  let volumeId: string;

  beforeAll(() => {
    host = get();
    volume = new Volume({ shell: host.shell, pathStyle: "posix" });
    const guid = host.sim.state().partitions.find((p) => p.diskNumber === 1 && p.volume)?.volume;
    volumeId = `\\\\?\\Volume{${guid ?? ""}}\\`;
  });

  it("volumeId: every method rejects hostile ids before anything starts", async () => {
    const calls: ((id: string) => Promise<unknown>)[] = [
      (id) => volume.isVolumeFormatted({ volumeId: id }),
      (id) => volume.formatVolume({ volumeId: id }),
      (id) => volume.mountVolume({ volumeId: id, targetPath: host.sim.root }),
      (id) => volume.unmountVolume({ volumeId: id, targetPath: host.sim.root }),
      (id) => volume.resizeVolume({ volumeId: id, sizeBytes: gib }),
      (id) => volume.getVolumeStats({ volumeId: id }),
      (id) => volume.getDiskNumberFromVolumeId({ volumeId: id }),
      (id) => volume.writeVolumeCache({ volumeId: id }),
      (id) => volume.listVolumeMountPoints({ volumeId: id }),
    ];
    await fc.assert(
      fc.asyncProperty(hostile, fc.constantFrom(...calls), async (value, call) => {
        expect(await proveValue(host, started, () => call(value), undefined)).toBe(
          "INVALID_ARGUMENT",
        );
      }),
      runs,
    );
  });

  it("label: Format-Volume receives it byte-exact, or it is rejected", async () => {
    const labels = hostile.map(withoutControl).map(fit(32));
    // "" means "no label" (documented), so it is proved on its own below.
    const nonEmpty = fc.oneof(labels, hostile).filter((label) => label !== "");
    await fc.assert(
      fc.asyncProperty(nonEmpty, async (label) => {
        await proveValue(host, started, () => volume.formatVolume({ volumeId, label }), {
          command: "Format-Volume",
          parameter: "NewFileSystemLabel",
          value: label,
        });
      }),
      runs,
    );
  });

  it("label: an empty label formats without setting one", async () => {
    host.mark();
    await volume.formatVolume({ volumeId, label: "" });
    const formats = host.since().filter((entry) => entry.command === "Format-Volume");
    expect(formats).toHaveLength(1);
    expect(Object.keys(formats[0]?.parameters ?? {})).not.toContain("NewFileSystemLabel");
  });

  it("targetPath: Add-/Remove-PartitionAccessPath receive it byte-exact", async () => {
    // ":" is forbidden in Windows paths; on Linux pwsh reads "a::b" as a provider-qualified path.
    // "\\" is the separator the volume scripts split paths on (as Windows does), not a name character.
    let run = 0;
    const names = hostile.map(withoutNul).map(without(/[:\\]/g)).map(fit(120));
    await fc.assert(
      fc.asyncProperty(names, async (name) => {
        // A fresh parent per run, so an earlier name can never make this folder non-empty.
        run += 1;
        const targetPath = `${host.sim.root}/mnt/${run}/${name}`;
        let normal: string;
        try {
          normal = normalizePath(targetPath, { style: "posix" });
        } catch {
          const call = () => volume.mountVolume({ volumeId, targetPath });
          expect(await proveValue(host, started, call, undefined)).toBe("INVALID_ARGUMENT");
          return;
        }
        mkdirSync(normal, { recursive: true });
        const mounted = await proveValue(
          host,
          started,
          () => volume.mountVolume({ volumeId, targetPath }),
          { command: "Add-PartitionAccessPath", parameter: "AccessPath", value: normal },
        );
        expect(mounted).toBe("ok");
        const unmounted = await proveValue(
          host,
          started,
          () => volume.unmountVolume({ volumeId, targetPath }),
          // Unmount passes the access path as the partition stores it: with the simulator's trailing "/".
          { command: "Remove-PartitionAccessPath", parameter: "AccessPath", value: `${normal}/` },
        );
        expect(unmounted).toBe("ok");
      }),
      runs,
    );
  });

  it("targetPath lookups: hostile paths run nothing and fail typed", async () => {
    await fc.assert(
      fc.asyncProperty(hostile, fc.boolean(), async (name, closest) => {
        const targetPath = `${host.sim.root}/${name}`;
        const lookup = closest
          ? () => volume.getClosestVolumeIdFromTargetPath({ targetPath })
          : () => volume.getVolumeIdFromTargetPath({ targetPath });
        await proveValue(host, started, lookup, undefined);
      }),
      runs,
    );
  });
});
