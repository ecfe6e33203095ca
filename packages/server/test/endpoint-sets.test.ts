// Two drivers on one node with unmodified, token-less clients (issue #24 item 2): an iSCSI driver
// and an SMB driver, each given its own endpoint set (`--endpoint-set`), as a deployment mounts
// only that set's sockets or pipes into the driver's pods. Both are granted the same methods, so
// every refusal here is the policy's resource grants keeping the sets apart. The calls are sent
// by test/raw-grpc.ts, a client built without the server's code; each refusal also checks that
// nothing but a read ran on the host.
import { existsSync, readFileSync, statSync, writeFileSync, rmSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { demoNodeWorld as world, scenarios, type CallLogEntry } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import { kubeletPublishes, startOnScenario, type RunningBin } from "./harness.js";
import { readmePolicy } from "./readme-policy.js";
import { clusterKey, tokenAudience, tokenIssuer } from "./sa-tokens.js";

const OK = 0;
const PERMISSION_DENIED = 7;
const kubelet = "C:\\var\\lib\\kubelet";
const portal = { target_address: world.portal.targetAddress, target_port: 3260 };
const target = { target_portal: portal, iqn: world.iqn };
const chap = {
  auth_type: "ONE_WAY_CHAP",
  chap_username: world.chap.username,
  chap_secret: world.chap.secret,
};

type Driver = "iscsi" | "smb";
const driverName: Record<Driver, string> = {
  iscsi: "org.democratic-csi.iscsi",
  smb: "smb.csi.k8s.io",
};
const staging = (d: Driver, pv: string) =>
  `${kubelet}\\plugins\\kubernetes.io\\csi\\${driverName[d]}\\${pv}\\globalmount`;

// The README's example, as it is printed there: the test runs what the README shows.
const example = readmePolicy("endpoint-sets-policy");
const policy = {
  version: 1,
  rules: [
    ...example.rules,
    {
      // An operator's tool with a token: wide on its own, narrowed by the set it calls on.
      name: "ops",
      callers: [{ serviceAccount: { namespace: "kube-system", name: "ops" } }],
      methods: ["system.GetService", "iscsi.ListTargetPortals"],
      iscsiPortals: [world.portal.targetAddress],
      services: ["MSiSCSI", "Spooler"],
    },
  ],
};

describeWithPwsh(
  "two drivers, one endpoint set each: neither reaches the other's resources",
  (pwsh) => {
    let bin: RunningBin;
    let auditLog: string;
    let opsToken: string;
    // What the iSCSI driver's own flow made: its disk's number and its volume.
    let diskNumber = -1;
    let volumeId = "";
    let smbPod = "";
    const host = (path: string) => join(bin.ready.simulator.root, ...path.slice(3).split("\\"));

    const calls = (): CallLogEntry[] =>
      readFileSync(join(bin.ready.simulator.dir, "calls.jsonl"), "utf8")
        .split("\n")
        .filter((line) => line.trim() !== "")
        .map((line) => JSON.parse(line) as CallLogEntry);
    const clearCalls = () => {
      writeFileSync(join(bin.ready.simulator.dir, "calls.jsonl"), "");
      rmSync(join(bin.ready.simulator.dir, "calls.seq"), { force: true });
    };

    beforeAll(async () => {
      const cluster = await clusterKey();
      opsToken = await cluster.sign({ name: "ops" });
      const jwks = join(mkdtempSync(join(tmpdir(), "csi-sets-")), "jwks.json");
      writeFileSync(jwks, JSON.stringify(cluster.jwks));
      ({ bin, auditLog } = await startOnScenario(pwsh, scenarios.demoNode(), policy, [
        "--endpoint-set",
        "iscsi",
        "--endpoint-set",
        "smb",
        "--jwks-file",
        jwks,
        "--token-audience",
        tokenAudience,
        "--token-issuer",
        tokenIssuer,
      ]));
    });

    afterAll(async () => {
      expect(await bin.stop()).toBe(0);
    });

    // A driver's pod has only its own set's sockets: it dials `<set>/<endpoint>`.
    const call = (d: Driver, endpoint: string, method: string, request: Record<string, unknown>) =>
      bin.client(`${d}/${endpoint}`).call(method, request);

    async function ok(d: Driver, endpoint: string, method: string, request = {}) {
      const reply = await call(d, endpoint, method, request);
      expect(reply.code, `${d}: ${endpoint} ${method}: ${reply.details}`).toBe(OK);
      return reply.message ?? {};
    }

    /** Refused, naming neither the other driver nor the policy, with nothing but reads run. */
    async function refused(d: Driver, endpoint: string, method: string, request = {}) {
      clearCalls();
      const reply = await call(d, endpoint, method, request);
      expect(reply.code, `${d}: ${endpoint} ${method} ${JSON.stringify(request)}`).toBe(
        PERMISSION_DENIED,
      );
      const other: Driver = d === "iscsi" ? "smb" : "iscsi";
      // The request's own paths may be echoed; nothing else of the other driver may be.
      let told = reply.details;
      for (const value of Object.values(request))
        if (typeof value === "string") told = told.replaceAll(value, "");
      for (const secret of [driverName[other], `${other}-driver`, "policy.json"])
        expect(told).not.toContain(secret);
      for (const entry of calls()) expect(entry.command).toMatch(/^Get-/);
    }

    it("the README's policy names the simulated node's portal, target and share", () => {
      expect(example.rules.map((r) => r.callers)).toEqual([
        [{ endpointSet: "iscsi" }],
        [{ endpointSet: "smb" }],
      ]);
      expect(example.rules[0]).toMatchObject({
        driver: driverName.iscsi,
        iscsiPortals: [world.portal.targetAddress],
        iscsiTargets: [world.iqn],
      });
      expect(example.rules[1]).toMatchObject({
        driver: driverName.smb,
        smbRemotePaths: [world.share],
      });
    });

    it("serves only the sets asked for, each in a folder of its own", () => {
      const keys = Object.keys(bin.ready.endpoints);
      expect(keys).toContain("iscsi/iscsi-v1alpha2");
      expect(keys).toContain("smb/smb-v1");
      expect(keys.filter((key) => !/^(iscsi|smb)\//.test(key))).toEqual([]);
      for (const set of ["iscsi", "smb"]) {
        const socket = bin.ready.endpoints[`${set}/filesystem-v1`] ?? "";
        expect(dirname(socket)).toBe(join(bin.socketDir, set));
        expect(statSync(dirname(socket)).mode & 0o777).toBe(0o700);
      }
    });

    it("the iSCSI driver gets all of its own: service, portal, CHAP login, disk, volume, mount", async () => {
      await ok("iscsi", "system-v1alpha1", "StartService", { name: "MSiSCSI" });
      await ok("iscsi", "system-v1alpha1", "GetService", { name: "MSiSCSI" });
      await ok("iscsi", "iscsi-v1alpha2", "AddTargetPortal", { target_portal: portal });
      expect(await ok("iscsi", "iscsi-v1alpha2", "ListTargetPortals")).toEqual({
        target_portals: [portal],
      });
      await ok("iscsi", "iscsi-v1alpha2", "ConnectTarget", { ...target, ...chap });
      const { diskIDs } = (await ok("iscsi", "iscsi-v1alpha2", "GetTargetDisks", target)) as {
        diskIDs: string[];
      };
      expect(diskIDs).toHaveLength(1);
      diskNumber = Number(diskIDs[0]);
      const listed = (await ok("iscsi", "disk-v1", "ListDiskIDs")) as { diskIDs: object };
      expect(Object.keys(listed.diskIDs)).toEqual([String(diskNumber)]);
      await ok("iscsi", "disk-v1", "SetDiskState", { disk_number: diskNumber, is_online: true });
      await ok("iscsi", "disk-v1", "PartitionDisk", { disk_number: diskNumber });
      await ok("iscsi", "disk-v1", "GetDiskStats", { disk_number: diskNumber });
      const volumes = (await ok("iscsi", "volume-v1", "ListVolumesOnDisk", {
        disk_number: diskNumber,
      })) as { volume_ids: string[] };
      [volumeId = ""] = volumes.volume_ids;
      await ok("iscsi", "volume-v1", "FormatVolume", { volume_id: volumeId });
      const mount = staging("iscsi", "pv-i");
      await ok("iscsi", "filesystem-v1", "Mkdir", { path: mount });
      await ok("iscsi", "volume-v1", "MountVolume", { volume_id: volumeId, target_path: mount });
      await ok("iscsi", "volume-v1", "GetVolumeStats", { volume_id: volumeId });
      expect(existsSync(host(mount))).toBe(true);
    });

    it("the SMB driver gets all of its own: the share mapped at its staging path, published", async () => {
      const stage = staging("smb", "pv-s");
      await ok("smb", "filesystem-v1", "Mkdir", { path: stage.replace(/\\globalmount$/, "") });
      await ok("smb", "smb-v1", "NewSmbGlobalMapping", {
        remote_path: world.share,
        local_path: stage,
        username: world.smbUser,
        password: world.smbPassword,
      });
      smbPod = kubeletPublishes(bin.ready.simulator.root, "pod-s", "pv-s", driverName.smb);
      await ok("smb", "filesystem-v1", "CreateSymlink", {
        source_path: stage,
        target_path: `${smbPod}\\mount`,
      });
      expect(await ok("smb", "filesystem-v1", "PathExists", { path: `${smbPod}\\mount` })).toEqual({
        exists: true,
      });
    });

    it("the SMB driver is refused every iSCSI resource: service, portal, target, disk, volume, paths", async () => {
      expect(diskNumber).toBeGreaterThanOrEqual(0);
      await refused("smb", "system-v1alpha1", "StartService", { name: "MSiSCSI" });
      await refused("smb", "system-v1alpha1", "GetService", { name: "MSiSCSI" });
      await refused("smb", "iscsi-v1alpha2", "AddTargetPortal", { target_portal: portal });
      await refused("smb", "iscsi-v1alpha2", "RemoveTargetPortal", { target_portal: portal });
      await refused("smb", "iscsi-v1alpha2", "DiscoverTargetPortal", { target_portal: portal });
      await refused("smb", "iscsi-v1alpha2", "ConnectTarget", { ...target, ...chap });
      await refused("smb", "iscsi-v1alpha2", "DisconnectTarget", target);
      await refused("smb", "iscsi-v1alpha2", "GetTargetDisks", target);
      // Listings are narrowed to what it was granted: nothing.
      expect(await ok("smb", "iscsi-v1alpha2", "ListTargetPortals")).toEqual({
        target_portals: [],
      });
      const disks = (await ok("smb", "disk-v1", "ListDiskIDs")) as { diskIDs?: object };
      expect(Object.keys(disks.diskIDs ?? {})).toEqual([]);
      await refused("smb", "disk-v1", "GetDiskStats", { disk_number: diskNumber });
      await refused("smb", "disk-v1", "SetDiskState", {
        disk_number: diskNumber,
        is_online: false,
      });
      await refused("smb", "disk-v1", "PartitionDisk", { disk_number: diskNumber });
      await refused("smb", "volume-v1", "ListVolumesOnDisk", { disk_number: diskNumber });
      await refused("smb", "volume-v1", "FormatVolume", { volume_id: volumeId });
      await refused("smb", "volume-v1", "GetVolumeStats", { volume_id: volumeId });
      await refused("smb", "volume-v1", "UnmountVolume", {
        volume_id: volumeId,
        target_path: staging("iscsi", "pv-i"),
      });
      const theirs = staging("iscsi", "pv-i");
      await refused("smb", "volume-v1", "GetVolumeIDFromTargetPath", { target_path: theirs });
      await refused("smb", "filesystem-v1", "PathExists", { path: theirs });
      await refused("smb", "filesystem-v1", "Mkdir", { path: `${theirs}\\x` });
      await refused("smb", "filesystem-v1", "Rmdir", { path: theirs, force: true });
      await refused("smb", "filesystem-v1", "CreateSymlink", {
        source_path: theirs,
        target_path: staging("smb", "pv-x"),
      });
      expect(existsSync(host(theirs))).toBe(true);
    });

    it("the iSCSI driver is refused every SMB resource: the share, its staging link and pod volume", async () => {
      const mine = staging("iscsi", "pv-j");
      await ok("iscsi", "filesystem-v1", "Mkdir", { path: mine.replace(/\\globalmount$/, "") });
      await refused("iscsi", "smb-v1", "NewSmbGlobalMapping", {
        remote_path: world.share,
        local_path: mine,
        username: world.smbUser,
        password: world.smbPassword,
      });
      await refused("iscsi", "smb-v1", "RemoveSmbGlobalMapping", { remote_path: world.share });
      const theirs = staging("smb", "pv-s");
      await refused("iscsi", "filesystem-v1", "PathExists", { path: theirs });
      await refused("iscsi", "filesystem-v1", "IsSymlink", { path: theirs });
      await refused("iscsi", "filesystem-v1", "Mkdir", { path: `${theirs}\\x` });
      await refused("iscsi", "filesystem-v1", "CreateSymlink", {
        source_path: theirs,
        target_path: mine,
      });
      await refused("iscsi", "filesystem-v1", "Rmdir", { path: `${smbPod}\\mount` });
      await refused("iscsi", "filesystem-v2alpha1", "RmdirContents", { path: `${smbPod}\\mount` });
      expect(existsSync(host(mine))).toBe(false);
      expect(await ok("smb", "filesystem-v1", "PathExists", { path: `${smbPod}\\mount` })).toEqual({
        exists: true,
      });
    });

    it("each audit line names the endpoint set and the peer the kernel reports", () => {
      const records = readFileSync(auditLog, "utf8")
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as Record<string, string>);
      const peer = `uid=${String(process.getuid?.())},gid=${String(process.getgid?.())},pid=${String(process.pid)}`;
      const smbMapping = records.find((r) => r.method === "smb.NewSmbGlobalMapping");
      expect(smbMapping).toMatchObject({ endpointSet: "smb", peer, decision: "allow" });
      const denied = records.filter((r) => r.endpointSet === "smb" && r.decision === "deny");
      expect(denied.length).toBeGreaterThan(10);
      for (const record of records) {
        expect(["iscsi", "smb"]).toContain(record.endpointSet);
        expect(record.peer).toBe(peer);
      }
    });

    it("a token narrows within the set it came in on, and never reaches past it", async () => {
      const as = { metadata: { authorization: `Bearer ${opsToken}` } };
      const on = (d: Driver, method: string, request: Record<string, unknown>) =>
        bin.client(`${d}/system-v1alpha1`).call(method, request, as);
      // The iSCSI set grants MSiSCSI; ops is granted it too.
      expect((await on("iscsi", "GetService", { name: "MSiSCSI" })).code).toBe(OK);
      // ops is granted Spooler, the set is not: both must allow.
      expect((await on("iscsi", "GetService", { name: "Spooler" })).code).toBe(PERMISSION_DENIED);
      // The SMB set grants no service at all, whatever the token says.
      expect((await on("smb", "GetService", { name: "MSiSCSI" })).code).toBe(PERMISSION_DENIED);
      const last = JSON.parse(readFileSync(auditLog, "utf8").trim().split("\n").at(-1) ?? "{}") as {
        caller: string;
        reason: string;
        rules: string[];
      };
      expect(last.caller).toBe("serviceaccount:kube-system/ops");
      expect(last.reason).toContain("(endpoint set smb)");
      expect(last.rules).toEqual(["ops", "smb-driver"]);
    });
  },
);
