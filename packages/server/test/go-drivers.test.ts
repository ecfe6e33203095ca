// The Go CSI drivers' node sequences on csi-proxy v1, replayed over the wire (issue #34):
// aws-ebs, gce-pd, azuredisk, azurefile and vSphere's last v1 client, written from their sources
// (go-drivers.md; test/go-drivers/*.ts) with the paths kubelet sends and each driver's own reading
// of answers and error texts. Every CSI call is retried as kubelet does: again after a failure,
// and again after success (a kubelet restart stages and publishes again). Under
// --policy v1-compatible on upstream's endpoint names, and under the least-privilege policies the
// package ships (examples/policies/<driver>.json), each driver on its own endpoint set: there
// each is refused what another holds, and is granted no method it did not call.
import { readFileSync } from "node:fs";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Simulator } from "@csi-proxy/winsim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOnScenario, type RunningBin } from "./harness.js";
import { awsEbs } from "./go-drivers/aws-ebs.js";
import { azuredisk } from "./go-drivers/azuredisk.js";
import { azurefile } from "./go-drivers/azurefile.js";
import { gcePd } from "./go-drivers/gce-pd.js";
import { GoNode, GoStatusError, kubelet } from "./go-drivers/go-client.js";
import { kubeletPrepares, type KubeletPaths } from "./go-drivers/kubelet.js";
import type { DriverReplay, Held } from "./go-drivers/replay.js";
import { vsphereCsi } from "./go-drivers/vsphere.js";
import { azureFiles, ebs, gce, goDriversNode, vsphere } from "./go-drivers/world.js";

const PERMISSION_DENIED = 7;

interface Driver {
  /** examples/policies/<file>.json */
  readonly file: string;
  readonly name: string;
  readonly replay: (node: GoNode, paths: KubeletPaths) => DriverReplay;
  /** The cloud's side of NodeExpandVolume: the disk grows, the host's storage cache lags. */
  readonly grow?: { readonly diskNumber: number; readonly size: number };
  /** Granted methods the replay does not call, each on a path of the driver's it does not take. */
  readonly notCalled: readonly string[];
  /** The CSI errors kubelet sees before the first stage succeeds, as on upstream. */
  readonly firstStageFails?: true;
}

const drivers: readonly Driver[] = [
  {
    file: "aws-ebs",
    name: "ebs.csi.aws.com",
    replay: awsEbs,
    grow: { diskNumber: ebs.diskNumber, size: ebs.grownSize },
    // Mkdir: NodeStage when kubelet has not made the staging folder; IsSymlink: NodePublish when
    // the pod path survives its Rmdir.
    notCalled: ["filesystem.Mkdir", "filesystem.IsSymlink"],
  },
  {
    file: "gce-pd",
    name: "pd.csi.storage.gke.io",
    replay: gcePd,
    grow: { diskNumber: gce.diskNumber, size: gce.grownSize },
    notCalled: [],
  },
  {
    file: "azuredisk",
    name: "disk.csi.azure.com",
    replay: azuredisk,
    notCalled: [],
    // ResizeVolume of the disk number after the mount fails (upstream: no volume "13").
    firstStageFails: true,
  },
  {
    file: "azurefile",
    name: "file.csi.azure.com",
    replay: azurefile,
    // Mkdir: NodeStage when the staging folder's parent is gone.
    notCalled: ["filesystem.Mkdir"],
  },
  {
    file: "vsphere",
    name: "csi.vsphere.vmware.com",
    replay: vsphereCsi,
    grow: { diskNumber: vsphere.diskNumber, size: vsphere.grownSize },
    // ResizeVolume and a second SetDiskState online: NodeExpand when the disk is still more
    // than 1 MiB short of the request after a Rescan.
    notCalled: ["volume.ResizeVolume"],
  },
];

interface RuleFile {
  rules: { name: string; callers: { endpointSet: string }[]; methods: string[] }[];
}
const example = (file: string) =>
  JSON.parse(
    readFileSync(new URL(`../examples/policies/${file}.json`, import.meta.url), "utf8"),
  ) as RuleFile;
const setOf = (d: Driver) => example(d.file).rules[0]?.callers[0]?.endpointSet ?? "";

const policies = [
  { title: "--policy v1-compatible, upstream's endpoint names", sets: false },
  { title: "the shipped example policies, one endpoint set per driver", sets: true },
] as const;

describeWithPwsh("the Go drivers' node sequences over the wire", (pwsh) => {
  for (const { title, sets } of policies) {
    describe(`under ${title}`, () => {
      let bin: RunningBin;
      let auditLog: string;
      let sim: Simulator;
      const replays = new Map<string, DriverReplay>();
      const replayOf = (d: Driver) => {
        const replay = replays.get(d.name);
        if (replay === undefined) throw new Error(`${d.name} was not staged`);
        return replay;
      };

      beforeAll(async () => {
        const policy = sets
          ? { version: 1, rules: drivers.flatMap((d) => example(d.file).rules) }
          : "v1-compatible";
        const args = sets ? drivers.flatMap((d) => ["--endpoint-set", setOf(d)]) : [];
        ({ bin, auditLog } = await startOnScenario(pwsh, goDriversNode(), policy, args));
        sim = await Simulator.open(bin.ready.simulator.dir);
      });

      afterAll(async () => {
        expect(await bin.stop()).toBe(0);
      });

      for (const d of drivers) {
        it(`${d.file}: stage, publish, stats, expand, each retried`, async () => {
          const node = new GoNode(bin, sets ? setOf(d) : undefined);
          const replay = d.replay(
            node,
            kubeletPrepares(bin.ready.simulator.root, d.name, `pv-${d.file}`),
          );
          replays.set(d.name, replay);
          await replay.nodeInfo?.();
          const first = await kubelet(replay.stage);
          expect(first.map((e) => e.code)).toEqual(d.firstStageFails ? ["Internal"] : []);
          expect(await kubelet(replay.stage)).toEqual([]);
          for (const step of [replay.publish, replay.stats]) {
            expect(await kubelet(step)).toEqual([]);
            expect(await kubelet(step)).toEqual([]);
          }
          const grow = d.grow;
          const capacity = await replay.expand?.(() => {
            if (grow === undefined) return;
            sim.update((state) => {
              const disk = state.disks.find((x) => x.number === grow.diskNumber);
              if (disk === undefined) throw new Error(`no disk ${grow.diskNumber}`);
              disk.cachedSize = disk.size;
              disk.size = grow.size;
            });
          });
          // aws-ebs and gce-pd report the disk's size, which the host now sees grown.
          if (capacity !== undefined && grow !== undefined && d.file !== "vsphere") {
            expect(capacity).toBe(BigInt(grow.size));
          }
          // NodeGetVolumeStats again, as kubelet polls it, on the expanded volume.
          expect(await kubelet(replay.stats)).toEqual([]);
        });
      }

      if (sets) {
        // Each driver against the next one's disk, volume, folders and share, on its own set.
        for (const [i, d] of drivers.entries()) {
          const other = drivers[(i + 1) % drivers.length] as Driver;
          it(`${d.file} is refused what ${other.file} holds`, async () => {
            const theirs = replayOf(other).holds();
            const mine = new GoNode(bin, setOf(d));
            const before = sim.calls().length;
            for (const [endpoint, method, request] of probes(theirs, d.name)) {
              const error = await mine.call(endpoint, method, request).then(
                () => undefined,
                (e: unknown) => e,
              );
              expect(error, `${d.file}: ${method} ${JSON.stringify(request)}`).toBeInstanceOf(
                GoStatusError,
              );
              expect((error as GoStatusError).code).toBe(PERMISSION_DENIED);
              // The request's own values may be echoed (normalised); nothing else of the other.
              let told = (error as GoStatusError).details;
              for (const value of Object.values(request)) {
                if (typeof value !== "string") continue;
                const escaped = value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
                told = told.replace(new RegExp(escaped, "gi"), "");
              }
              expect(told).not.toContain(other.name);
            }
            // ListDiskIDs answers with the caller's disks only.
            if (theirs.diskNumber !== undefined) {
              const listed = await mine.call("disk-v1", "ListDiskIDs").catch((e: unknown) => e);
              if (listed instanceof GoStatusError) expect(listed.code).toBe(PERMISSION_DENIED);
              else
                expect(Object.keys((listed as { diskIDs: object }).diskIDs)).not.toContain(
                  String(theirs.diskNumber),
                );
            }
            const changing = sim
              .calls()
              .slice(before)
              .filter((c) => !/^(Get|Test)-/.test(c.command));
            expect(changing.map((c) => c.command)).toEqual([]);
          });
        }
      }

      for (const d of drivers) {
        it(`${d.file}: unpublish, unstage, each retried`, async () => {
          const replay = replayOf(d);
          for (const step of [replay.unpublish, replay.unstage]) {
            expect(await kubelet(step)).toEqual([]);
            expect(await kubelet(step)).toEqual([]);
          }
          const node = new GoNode(bin, sets ? setOf(d) : undefined);
          for (const path of replay.holds().paths) {
            expect(await node.call("filesystem-v1", "PathExists", { path })).toEqual({
              exists: false,
            });
          }
        });
      }

      if (sets) {
        it("each example policy grants its driver exactly the methods it calls", () => {
          const allowed = new Map<string, Set<string>>();
          for (const line of readFileSync(auditLog, "utf8").trim().split("\n")) {
            const r = JSON.parse(line) as { endpointSet: string; method: string; decision: string };
            if (r.decision !== "allow") continue;
            allowed.set(r.endpointSet, (allowed.get(r.endpointSet) ?? new Set()).add(r.method));
          }
          for (const d of drivers) {
            const granted = example(d.file).rules.flatMap((r) => r.methods);
            const called = [...(allowed.get(setOf(d)) ?? [])];
            expect(called.sort(), d.file).toEqual(
              granted.filter((m) => !d.notCalled.includes(m)).sort(),
            );
          }
        });
      }
    });
  }
});

/** What a driver must not reach of another's: its disk, volume, folders and share. */
function probes(theirs: Held, driver: string): [string, string, Record<string, unknown>][] {
  const out: [string, string, Record<string, unknown>][] = [];
  if (theirs.diskNumber !== undefined) {
    out.push(["disk-v1", "GetDiskStats", { disk_number: theirs.diskNumber }]);
    out.push(["disk-v1", "SetDiskState", { disk_number: theirs.diskNumber, is_online: false }]);
  }
  if (theirs.volumeId !== undefined && theirs.volumeId !== "") {
    out.push(["volume-v1", "GetVolumeStats", { volume_id: theirs.volumeId }]);
  }
  for (const path of theirs.paths) {
    out.push(["filesystem-v1", "PathExists", { path }]);
    out.push(["volume-v1", "GetVolumeIDFromTargetPath", { target_path: path }]);
  }
  if (theirs.share !== undefined) {
    out.push([
      "smb-v1",
      "NewSmbGlobalMapping",
      {
        remote_path: theirs.share,
        local_path: `c:\\var\\lib\\kubelet\\plugins\\kubernetes.io\\csi\\${driver}\\probe\\globalmount`,
        username: azureFiles.username,
        password: azureFiles.accountKey,
      },
    ]);
  }
  return out;
}
