import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPowerShell, type PowerShell } from "@csi-proxy/exec";
import { Iscsi } from "@csi-proxy/iscsi";
import { System } from "@csi-proxy/system";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Volume } from "@csi-proxy/volume";
import { demoNodeWorld, scenarios, winsimModulePath, type CallLogEntry } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import { defaultMaxFactAgeMs } from "../src/policy/ownership.js";
import { kubeletPublishes, startOnScenario, type RunningBin } from "./harness.js";

const OK = 0;
const PERMISSION_DENIED = 7;
const world = demoNodeWorld;
const kubelet = "C:\\var\\lib\\kubelet";
const driver = "org.example.iscsi";
const mine = "iqn.2003-01.org.linux-iscsi.array1:pvc-mine-1";
const other = world.iqn; // the demo array's CHAP target: another driver's
const portal = { target_address: world.portal.targetAddress, target_port: 3260 };

// The demo node, with a second target on the array for this driver.
function scenario(): unknown {
  const spec = scenarios.demoNode();
  const [array] = spec.iscsi?.servers ?? [];
  if (array === undefined) throw new Error("the demo node has no iSCSI array");
  const lun = {
    size: 2 * 1024 ** 3,
    busType: "iSCSI" as const,
    page83: { naa: "6001405aaaabbbbccccddddeeeeffff0" },
  };
  return {
    ...spec,
    iscsi: {
      ...spec.iscsi,
      servers: [{ ...array, targets: [...(array.targets ?? []), { iqn: mine, luns: [lun] }] }],
    },
  };
}

const policy = {
  version: 1,
  rules: [
    {
      name: "iscsi-driver",
      callers: [{ local: true }],
      methods: [
        "filesystem.*",
        "volume.*",
        "disk.PartitionDisk",
        "disk.GetDiskStats",
        "disk.GetDiskState",
        "disk.DiskStats",
        "disk.GetAttachState",
        "iscsi.*",
        "smb.*",
        "system.StartService",
      ],
      driver,
      iscsiPortals: [world.portal.targetAddress],
      iscsiTargets: ["iqn.2003-01.org.linux-iscsi.array1:pvc-mine-*"],
      disks: { ofIscsiTargets: true, page83: ["60022480495f67cbc95fd232e88561a7"] },
      smbRemotePaths: [world.shareSubPath],
      services: ["MSiSCSI"],
    },
  ],
};

describeWithPwsh(
  "access control: each grant kind refuses what it does not cover, and runs nothing",
  (pwsh) => {
    let bin: RunningBin;
    let auditLog: string;
    let outOfBand: PowerShell;

    const calls = (): CallLogEntry[] =>
      readFileSync(join(bin.ready.simulator.dir, "calls.jsonl"), "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as CallLogEntry);
    const clearCalls = () => {
      writeFileSync(join(bin.ready.simulator.dir, "calls.jsonl"), "");
      rmSync(join(bin.ready.simulator.dir, "calls.seq"), { force: true });
    };

    async function ok(
      endpoint: string,
      method: string,
      request = {},
    ): Promise<Record<string, unknown>> {
      const reply = await bin.client(endpoint).call(method, request);
      expect(reply, `${method}: ${reply.details}`).toMatchObject({ code: OK });
      return reply.message ?? {};
    }

    /** Refused, naming the grant kind, with nothing run on the host (`reads`: but the read-only ownership lookups). */
    async function denied(
      endpoint: string,
      method: string,
      request: Record<string, unknown>,
      grant: string,
      reads = false,
    ) {
      clearCalls();
      const reply = await bin.client(endpoint).call(method, request);
      expect(reply.code, reply.details).toBe(PERMISSION_DENIED);
      expect(reply.details).toContain(`no "${grant}" grant covers`);
      // The policy file and its rule names are the audit log's, not the caller's.
      expect(reply.details).not.toContain("iscsi-driver");
      expect(reply.details).not.toContain("policy.json");
      const last = readFileSync(auditLog, "utf8").trim().split("\n").at(-1) ?? "{}";
      expect((JSON.parse(last) as { reason: string }).reason).toContain("rules: iscsi-driver");
      const ran = calls().map((c) => c.command);
      if (reads) {
        expect(ran.length).toBeGreaterThan(0);
        for (const command of ran) expect(command).toMatch(/^Get-/);
      } else {
        expect(ran).toEqual([]);
      }
      return reply;
    }

    beforeAll(async () => {
      ({ bin, auditLog } = await startOnScenario(pwsh, scenario(), policy));
      // Another driver on the same node, working on the host directly.
      outOfBand = createPowerShell({
        executable: pwsh,
        modules: [winsimModulePath],
        env: { CSI_WINSIM_DIR: bin.ready.simulator.dir },
      });
    });

    afterAll(async () => {
      await outOfBand.close();
      expect(await bin.stop()).toBe(0);
    });

    it("a method not granted", async () => {
      await denied("system-v1alpha1", "StopService", { name: "MSiSCSI" }, "methods");
      await denied("system-v1alpha1", "GetBIOSSerialNumber", {}, "methods");
      await denied("disk-v1", "SetDiskState", { disk_number: 4, is_online: false }, "methods");
      // An older version's name for it is a method of its own, not granted either.
      await denied("disk-v1beta2", "SetAttachState", { diskID: "4", isOnline: false }, "methods");
    });

    it("services: only the granted one starts", async () => {
      await denied("system-v1alpha1", "StartService", { name: "Spooler" }, "services");
      await ok("system-v1alpha1", "StartService", { name: "msiscsi" });
    });

    it("paths: the driver's own folders and the pods' CSI volumes, not another driver's", async () => {
      const own = `${kubelet}\\plugins\\${driver}\\pv-1\\globalmount`;
      const otherDriver = `${kubelet}\\plugins\\org.example.other\\pv-9`;
      await ok("filesystem-v1", "Mkdir", { path: own });
      // kubelet makes the pod volume folder and records its driver before NodePublishVolume.
      kubeletPublishes(bin.ready.simulator.root, "uid-1", "pv-1", driver);
      await ok("filesystem-v1", "Mkdir", {
        path: `${kubelet}\\pods\\uid-1\\volumes\\kubernetes.io~csi\\pv-1`,
      });
      await denied("filesystem-v1", "Mkdir", { path: otherDriver }, "paths");
      expect(
        existsSync(
          join(bin.ready.simulator.root, "var", "lib", "kubelet", "plugins", "org.example.other"),
        ),
      ).toBe(false);
      await denied(
        "filesystem-v1",
        "PathExists",
        { path: `${kubelet}\\plugins\\${driver}-evil` },
        "paths",
      );
      await denied("filesystem-v1", "IsSymlink", { path: "C:\\Windows\\System32" }, "paths");
      await denied(
        "filesystem-v1",
        "CreateSymlink",
        {
          source_path: otherDriver,
          target_path: `${kubelet}\\pods\\uid-1\\volumes\\kubernetes.io~csi\\pv-1\\mount`,
        },
        "paths",
      );
      await denied(
        "filesystem-v2alpha1",
        "RmdirContents",
        { path: `${kubelet}\\pods\\uid-1\\volumes\\kubernetes.io~empty-dir` },
        "paths",
      );
      await denied(
        "volume-v1",
        "MountVolume",
        { volume_id: "\\\\?\\Volume{1}\\", target_path: otherDriver },
        "paths",
      );
      // The older versions' names and fields for the same paths.
      await denied(
        "filesystem-v1alpha1",
        "LinkPath",
        {
          source_path: otherDriver,
          target_path: `${kubelet}\\pods\\uid-1\\volumes\\kubernetes.io~csi\\pv-1\\mount`,
        },
        "paths",
      );
      await denied("filesystem-v1beta1", "IsMountPoint", { path: "C:\\Windows" }, "paths");
      await denied("filesystem-v1beta1", "Mkdir", { path: otherDriver, context: "POD" }, "paths");
      await denied(
        "volume-v1beta2",
        "MountVolume",
        { volume_id: "\\\\?\\Volume{1}\\", path: otherDriver },
        "paths",
      );
      await denied(
        "volume-v1alpha1",
        "DismountVolume",
        { volume_id: "\\\\?\\Volume{1}\\", path: otherDriver },
        "paths",
      );
      await denied("volume-v1beta1", "GetVolumeIDFromMount", { mount: otherDriver }, "paths");
    });

    it("SMB: remote paths inside the granted prefix only", async () => {
      const request = { username: world.smbUser, password: world.smbPassword };
      await denied(
        "smb-v1",
        "NewSmbGlobalMapping",
        { ...request, remote_path: world.share },
        "smbRemotePaths",
      );
      await denied(
        "smb-v1",
        "NewSmbGlobalMapping",
        { ...request, remote_path: `${world.shareSubPath}-b` },
        "smbRemotePaths",
      );
      await denied(
        "smb-v1",
        "RemoveSmbGlobalMapping",
        { remote_path: world.share },
        "smbRemotePaths",
      );
      await denied(
        "smb-v1alpha1",
        "NewSmbGlobalMapping",
        { ...request, remote_path: world.share },
        "smbRemotePaths",
      );
      await ok("smb-v1", "NewSmbGlobalMapping", {
        ...request,
        remote_path: world.shareSubPath,
        local_path: `${kubelet}\\plugins\\${driver}\\smb-1`,
      });
    });

    it("iSCSI: the granted portal and targets only", async () => {
      await denied(
        "iscsi-v1alpha2",
        "AddTargetPortal",
        { target_portal: { target_address: "10.20.0.6" } },
        "iscsiPortals",
      );
      await denied(
        "iscsi-v1alpha1",
        "AddTargetPortal",
        { target_portal: { target_address: "10.20.0.6" } },
        "iscsiPortals",
      );
      await ok("iscsi-v1alpha2", "AddTargetPortal", { target_portal: portal });
      await denied(
        "iscsi-v1alpha2",
        "ConnectTarget",
        {
          target_portal: portal,
          iqn: other,
          auth_type: "ONE_WAY_CHAP",
          chap_username: world.chap.username,
          chap_secret: world.chap.secret,
        },
        "iscsiTargets",
      );
      await ok("iscsi-v1alpha2", "ConnectTarget", {
        target_portal: portal,
        iqn: mine,
        auth_type: "NONE",
      });
    });

    it("disks: those of the granted targets and page 83 ids, never another target's or one by number", async () => {
      const { diskIDs } = await ok("iscsi-v1alpha2", "GetTargetDisks", {
        target_portal: portal,
        iqn: mine,
      });
      const own = Number((diskIDs as string[])[0]);
      await ok("disk-v1", "PartitionDisk", { disk_number: own });
      // Another driver logs in to its own target on this node.
      const iscsi = new Iscsi({ shell: outOfBand });
      await iscsi.connectTarget({
        targetPortal: { targetAddress: portal.target_address },
        iqn: other,
        authType: "ONE_WAY_CHAP",
        chapUsername: world.chap.username,
        chapSecret: world.chap.secret,
      });
      const [theirs] = (
        await iscsi.getTargetDisks({
          targetPortal: { targetAddress: portal.target_address },
          iqn: other,
        })
      ).diskIds;
      expect(theirs).toBeDefined();
      await denied("disk-v1", "PartitionDisk", { disk_number: theirs }, "disks", true);
      await denied("disk-v1", "GetDiskStats", { disk_number: theirs }, "disks", true);
      await denied("volume-v1", "ListVolumesOnDisk", { disk_number: theirs }, "disks", true);
      await denied("disk-v1", "GetDiskState", { disk_number: 1 }, "disks", true);
      // The older versions' names, with the disk number as decimal text.
      const theirsText = String(theirs);
      await denied("disk-v1beta1", "DiskStats", { diskID: theirsText }, "disks", true);
      await denied("disk-v1beta2", "PartitionDisk", { diskID: theirsText }, "disks", true);
      await denied("disk-v1beta2", "GetAttachState", { diskID: "1" }, "disks", true);
      await denied("volume-v1alpha1", "ListVolumesOnDisk", { disk_id: theirsText }, "disks", true);
      // Granted by its page 83 id.
      await ok("disk-v1", "GetDiskStats", { disk_number: 4 });
      expect(await ok("disk-v1beta1", "DiskStats", { diskID: "4" })).toEqual({
        diskSize: String(10 * 1024 ** 3),
      });
    });

    it("volumes: those on granted disks only", async () => {
      const theirs = (
        await new Volume({ shell: outOfBand, pathStyle: "posix" }).listVolumesOnDisk({
          diskNumber: 1,
        })
      ).volumeIds[0];
      await denied("volume-v1", "FormatVolume", { volume_id: theirs }, "volumes", true);
      await denied("volume-v2alpha1", "IsVolumeFormatted", { volume_id: theirs }, "volumes", true);
      await denied("volume-v1beta1", "VolumeStats", { volume_id: theirs }, "volumes", true);
      await denied("volume-v1beta2", "GetVolumeDiskNumber", { volume_id: theirs }, "volumes", true);
      const { diskIDs } = await ok("iscsi-v1alpha2", "GetTargetDisks", {
        target_portal: portal,
        iqn: mine,
      });
      const [own] = (
        await ok("volume-v1", "ListVolumesOnDisk", {
          disk_number: Number((diskIDs as string[])[0]),
        })
      ).volume_ids as string[];
      await ok("volume-v1", "FormatVolume", { volume_id: own });
      expect(await ok("volume-v1", "IsVolumeFormatted", { volume_id: own })).toEqual({
        formatted: true,
      });
    });

    it("a volume that does not exist, or a lookup the host cannot answer, is denied like one not granted", async () => {
      // The same answer as for another driver's volume: whether it exists is not said.
      const missing = "\\\\?\\Volume{00000000-0000-0000-0000-00000000dead}\\";
      await denied("volume-v1", "FormatVolume", { volume_id: missing }, "volumes", true);
      const { diskIDs } = await ok("iscsi-v1alpha2", "GetTargetDisks", {
        target_portal: portal,
        iqn: mine,
      });
      const disk = Number((diskIDs as string[])[0]);
      const system = new System({ shell: outOfBand });
      await system.stopService({ name: "MSiSCSI", force: true });
      // Stopped behind the server's back: seen by every decision made the bound after it.
      await new Promise((resolve) => setTimeout(resolve, defaultMaxFactAgeMs));
      try {
        // The initiator service is stopped: the disk cannot be shown to be a granted target's.
        await denied("disk-v1", "GetDiskStats", { disk_number: disk }, "disks", true);
        const last = readFileSync(auditLog, "utf8").trim().split("\n").at(-1) ?? "{}";
        expect((JSON.parse(last) as { reason: string }).reason).toContain("the host lookup failed");
      } finally {
        await system.startService({ name: "MSiSCSI" });
      }
      await ok("disk-v1", "GetDiskStats", { disk_number: disk });
    });

    it("every decision is audited as a JSON line, and no secret is in the log", () => {
      const text = readFileSync(auditLog, "utf8");
      const records = text
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(records).toContainEqual(
        expect.objectContaining({
          caller: "local",
          method: "iscsi.ConnectTarget",
          endpoint: "iscsi-v1alpha2",
          decision: "deny",
          resources: [`iSCSI portal ${world.portal.targetAddress}:3260`, `iSCSI target ${other}`],
          rules: ["iscsi-driver"],
        }),
      );
      expect(records).toContainEqual(
        expect.objectContaining({ method: "disk.PartitionDisk", decision: "allow" }),
      );
      expect(records.filter((r) => r.decision === "deny").length).toBeGreaterThanOrEqual(15);
      expect(text).not.toContain(world.chap.secret);
      expect(text).not.toContain(world.smbPassword);
    });
  },
);
