import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { demoNodeWorld } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import { servedApis } from "../src/endpoints.js";
import { startBin, type RunningBin } from "./harness.js";
import { RawGrpcClient, type Reply } from "./raw-grpc.js";

// gRPC status codes (the wire's numbers, not a library's constants).
const OK = 0;
const CANCELLED = 1;
const INVALID_ARGUMENT = 3;
const DEADLINE_EXCEEDED = 4;
const NOT_FOUND = 5;
const PERMISSION_DENIED = 7;
const UNIMPLEMENTED = 12;

const world = demoNodeWorld;
const kubelet = "C:\\var\\lib\\kubelet";
const raw = { diskNumber: 4, page83: "60022480495f67cbc95fd232e88561a7" };
const portal = { target_address: world.portal.targetAddress, target_port: "3260" };

describeWithPwsh("a v1 client over the Unix sockets, against the simulated node", (pwsh) => {
  let bin: RunningBin;
  const called = new Map<string, Set<string>>();

  // Every call goes through here, so the last test can check that each RPC of each served version ran.
  async function call(
    endpoint: string,
    method: string,
    request = {},
    timeoutMs?: number,
  ): Promise<Reply> {
    const seen = called.get(endpoint) ?? new Set<string>();
    called.set(endpoint, seen.add(method));
    return bin.client(endpoint).call(method, request, timeoutMs === undefined ? {} : { timeoutMs });
  }

  async function ok(
    endpoint: string,
    method: string,
    request = {},
  ): Promise<Record<string, unknown>> {
    const reply = await call(endpoint, method, request);
    expect(reply, `${endpoint} ${method}: ${reply.details}`).toMatchObject({ code: OK });
    return reply.message ?? {};
  }

  beforeAll(async () => {
    bin = await startBin(pwsh, ["--simulate", "--policy", "v1-compatible"]);
  });

  afterAll(async () => {
    const exitCode = await bin.stop();
    expect(exitCode).toBe(0);
    expect(readdirSync(bin.socketDir)).toEqual([]);
    expect(existsSync(bin.ready.simulator.dir)).toBe(false);
  });

  it("warns that v1-compatible is as wide as upstream v1", () => {
    expect(bin.stderr()).toContain(
      "csi-proxy-server: warning: --policy v1-compatible: every local caller may call every RPC",
    );
  });

  it("prints one ready line naming a 0600 socket per endpoint, named as upstream's pipes", async () => {
    const { statSync } = await import("node:fs");
    expect(bin.ready.kubeletPath).toBe(kubelet);
    expect(Object.keys(bin.ready.endpoints).sort()).toEqual(
      servedApis.map((a) => `${a.group}-${a.version}`).sort(),
    );
    for (const [name, path] of Object.entries(bin.ready.endpoints)) {
      expect(path).toBe(join(bin.socketDir, `csi-proxy-${name}`));
      const stats = statSync(path);
      expect(stats.isSocket()).toBe(true);
      expect(stats.mode & 0o777).toBe(0o600);
    }
  });

  it("system v1alpha1: BIOS serial, a service started and read back", async () => {
    const bios = await ok("system-v1alpha1", "GetBIOSSerialNumber");
    expect(String(bios.serial_number).trim()).toBe(world.biosSerial);
    expect(await ok("system-v1alpha1", "GetService", { name: "MSiSCSI" })).toMatchObject({
      status: "STOPPED",
      start_type: "MANUAL",
    });
    await ok("system-v1alpha1", "StartService", { name: "MSiSCSI" });
    expect(await ok("system-v1alpha1", "GetService", { name: "MSiSCSI" })).toMatchObject({
      status: "RUNNING",
    });
    const missing = await call("system-v1alpha1", "GetService", { name: "NoSuchSvc" });
    expect(missing.code).toBe(NOT_FOUND);
  });

  it("disk v1: locations, ids, stats, state and partitioning", async () => {
    const { disk_locations: locations } = await ok("disk-v1", "ListDiskLocations");
    expect(locations).toHaveProperty(String(raw.diskNumber));
    const { diskIDs } = await ok("disk-v1", "ListDiskIDs");
    expect((diskIDs as Record<string, { page83: string }>)[String(raw.diskNumber)]?.page83).toBe(
      raw.page83,
    );
    await ok("disk-v1", "Rescan");
    expect(await ok("disk-v1", "GetDiskStats", { disk_number: raw.diskNumber })).toEqual({
      total_bytes: String(10 * 1024 ** 3),
    });
    expect(await ok("disk-v1", "GetDiskState", { disk_number: 6 })).toEqual({ is_online: false });
    await ok("disk-v1", "SetDiskState", { disk_number: 6, is_online: true });
    expect(await ok("disk-v1", "GetDiskState", { disk_number: 6 })).toEqual({ is_online: true });
    await ok("disk-v1", "PartitionDisk", { disk_number: raw.diskNumber });
    const missing = await call("disk-v1", "GetDiskStats", { disk_number: 42 });
    expect(missing.code).toBe(NOT_FOUND);
  });

  it("filesystem v1beta2, v1 and v2alpha1: directories and links, upstream's path texts", async () => {
    for (const endpoint of ["filesystem-v1beta2", "filesystem-v1", "filesystem-v2alpha1"]) {
      const stage = `${kubelet}\\plugins\\wire\\${endpoint}\\globalmount`;
      const pod = `${kubelet}\\pods\\uid-1\\volumes\\${endpoint}`;
      expect(await ok(endpoint, "PathExists", { path: stage })).toEqual({ exists: false });
      await ok(endpoint, "Mkdir", { path: stage });
      await ok(endpoint, "Mkdir", { path: `${kubelet}\\pods\\uid-1\\volumes` });
      await ok(endpoint, "CreateSymlink", { source_path: stage, target_path: pod });
      expect(await ok(endpoint, "IsSymlink", { path: pod })).toEqual({ is_symlink: true });
      expect(await ok(endpoint, "IsSymlink", { path: stage })).toEqual({ is_symlink: false });
      await ok(endpoint, "Rmdir", { path: pod });
      expect(await ok(endpoint, "PathExists", { path: pod })).toEqual({ exists: false });
      // democratic-csi takes this text for "the path does not exist".
      const relative = await call(endpoint, "PathExists", { path: "var\\lib\\kubelet" });
      expect(relative.code).toBe(INVALID_ARGUMENT);
      expect(relative.details).toContain("not an absolute Windows path");
      const gone = await call(endpoint, "Rmdir", { path: pod });
      expect(gone.code).toBe(NOT_FOUND);
      expect(gone.details).toContain("The system cannot find the file specified");
      // Upstream's working-dir rule: C:\var\lib\kubelet-evil is not inside C:\var\lib\kubelet.
      const outside = await call(endpoint, "Mkdir", { path: `${kubelet}-evil\\x` });
      expect(outside.code).toBe(PERMISSION_DENIED);
      expect(existsSync(join(bin.ready.simulator.root, "var", "lib", "kubelet-evil"))).toBe(false);
    }
    const dir = `${kubelet}\\plugins\\wire\\contents`;
    await ok("filesystem-v2alpha1", "Mkdir", { path: `${dir}\\a\\b` });
    await ok("filesystem-v2alpha1", "RmdirContents", { path: dir });
    expect(await ok("filesystem-v2alpha1", "PathExists", { path: dir })).toEqual({ exists: true });
    expect(await ok("filesystem-v2alpha1", "PathExists", { path: `${dir}\\a` })).toEqual({
      exists: false,
    });
    await ok("filesystem-v1", "Rmdir", { path: `${kubelet}\\plugins\\wire`, force: true });
  });

  it("volume v1beta3, v1 and v2alpha1: format, mount, look up, resize, unmount", async () => {
    const [volumeId] = (await ok("volume-v1", "ListVolumesOnDisk", { disk_number: raw.diskNumber }))
      .volume_ids as string[];
    expect(volumeId).toMatch(/^\\\\\?\\Volume\{[0-9a-f-]+\}\\$/);
    const id = { volume_id: volumeId };
    for (const endpoint of ["volume-v1", "volume-v1beta3", "volume-v2alpha1"]) {
      const mount = `${kubelet}\\plugins\\vol\\${endpoint}\\globalmount`;
      await ok("filesystem-v1", "Mkdir", { path: mount });
      expect(
        await ok(endpoint, "ListVolumesOnDisk", {
          disk_number: raw.diskNumber,
          partition_number: 0,
        }),
      ).toEqual({
        volume_ids: [volumeId],
      });
      if (endpoint === "volume-v1") {
        expect(await ok(endpoint, "IsVolumeFormatted", id)).toEqual({ formatted: false });
      }
      await ok(endpoint, "FormatVolume", id);
      expect(await ok(endpoint, "IsVolumeFormatted", id)).toEqual({ formatted: true });
      await ok(endpoint, "MountVolume", { ...id, target_path: mount });
      expect(await ok(endpoint, "GetVolumeIDFromTargetPath", { target_path: mount })).toEqual(id);
      if (endpoint === "volume-v2alpha1") {
        await ok("filesystem-v1", "Mkdir", { path: `${mount}\\data\\deep` });
        expect(
          await ok(endpoint, "GetClosestVolumeIDFromTargetPath", {
            target_path: `${mount}\\data\\deep`,
          }),
        ).toEqual(id);
      }
      const stats = await ok(endpoint, "GetVolumeStats", id);
      expect(BigInt(stats.total_bytes as string)).toBeGreaterThan(0n);
      expect(typeof stats.used_bytes).toBe("string");
      expect(await ok(endpoint, "GetDiskNumberFromVolumeID", id)).toEqual({
        disk_number: raw.diskNumber,
      });
      await ok(endpoint, "ResizeVolume", { ...id, size_bytes: "0" });
      await ok(endpoint, "WriteVolumeCache", id);
      await ok(endpoint, "UnmountVolume", { ...id, target_path: mount });
      const unmounted = await call(endpoint, "GetVolumeIDFromTargetPath", { target_path: mount });
      expect(unmounted.code).toBe(NOT_FOUND);
    }
    const bad = await call("volume-v1", "IsVolumeFormatted", { volume_id: "" });
    expect(bad.code).toBe(INVALID_ARGUMENT);
  });

  it("smb v1: a mapping linked into the kubelet dir, and removed; the password never echoed", async () => {
    const local = `${kubelet}\\plugins\\smb\\pv-1\\globalmount`;
    await ok("filesystem-v1", "Mkdir", { path: `${kubelet}\\plugins\\smb\\pv-1` });
    const wrong = await call("smb-v1", "NewSmbGlobalMapping", {
      remote_path: world.share,
      local_path: local,
      username: world.smbUser,
      password: "wrong-Pa55word!",
    });
    expect(wrong.code).not.toBe(OK);
    expect(wrong.details).not.toContain("wrong-Pa55word!");
    await ok("smb-v1", "NewSmbGlobalMapping", {
      remote_path: world.share,
      local_path: local,
      username: world.smbUser,
      password: world.smbPassword,
    });
    expect(await ok("filesystem-v1", "IsSymlink", { path: local })).toEqual({ is_symlink: true });
    const outside = await call("smb-v1", "NewSmbGlobalMapping", {
      remote_path: world.share,
      local_path: "C:\\Windows\\share-link",
      username: world.smbUser,
      password: world.smbPassword,
    });
    expect(outside.code).toBe(PERMISSION_DENIED);
    expect(outside.details).toContain('no "paths" grant covers path C:\\Windows\\share-link');
    await ok("filesystem-v1", "Rmdir", { path: local });
    await ok("smb-v1", "RemoveSmbGlobalMapping", { remote_path: world.share });
  });

  it("iscsi v1alpha2: portal, discovery, CHAP login, its disk, logout; secrets never echoed", async () => {
    expect(await ok("iscsi-v1alpha2", "ListTargetPortals")).toEqual({ target_portals: [] });
    await ok("iscsi-v1alpha2", "AddTargetPortal", { target_portal: portal });
    expect(await ok("iscsi-v1alpha2", "ListTargetPortals")).toEqual({
      target_portals: [{ target_address: world.portal.targetAddress, target_port: 3260 }],
    });
    expect(await ok("iscsi-v1alpha2", "DiscoverTargetPortal", { target_portal: portal })).toEqual({
      iqns: [world.iqn],
    });
    const target = { target_portal: portal, iqn: world.iqn };
    const badSecret = "not-the-secret-1";
    const refused = await call("iscsi-v1alpha2", "ConnectTarget", {
      ...target,
      auth_type: "ONE_WAY_CHAP",
      chap_username: world.chap.username,
      chap_secret: badSecret,
    });
    expect(refused.code).not.toBe(OK);
    expect(refused.details).not.toContain(badSecret);
    await ok("iscsi-v1alpha2", "ConnectTarget", {
      ...target,
      auth_type: "ONE_WAY_CHAP",
      chap_username: world.chap.username,
      chap_secret: world.chap.secret,
    });
    const { diskIDs } = await ok("iscsi-v1alpha2", "GetTargetDisks", target);
    expect(diskIDs).toHaveLength(1);
    expect((diskIDs as string[])[0]).toMatch(/^\d+$/);
    await ok("iscsi-v1alpha2", "SetMutualChapSecret", { MutualChapSecret: "mutual-secret-16" });
    await ok("iscsi-v1alpha2", "DisconnectTarget", target);
    expect(await ok("iscsi-v1alpha2", "GetTargetDisks", target)).toEqual({ diskIDs: [] });
    await ok("iscsi-v1alpha2", "RemoveTargetPortal", { target_portal: portal });
    expect(await ok("iscsi-v1alpha2", "ListTargetPortals")).toEqual({ target_portals: [] });
    // Upstream crashes the whole server on a missing portal; here it is one refused call.
    const noPortal = await call("iscsi-v1alpha2", "AddTargetPortal", {});
    expect(noPortal.code).toBe(INVALID_ARGUMENT);
    const gone = await call("iscsi-v1alpha2", "DisconnectTarget", target);
    if (gone.code !== OK) expect(gone.details).toContain("ObjectNotFound");
  });

  // A method an older version lacks, called on that version's endpoint under its service name.
  async function callMissing(
    endpoint: string,
    newer: string,
    method: string,
    request = {},
  ): Promise<Reply> {
    const api = servedApis.find((a) => `${a.group}-${a.version}` === endpoint)!;
    const client = new RawGrpcClient(
      bin.ready.endpoints[endpoint]!,
      `${api.group}/${newer}/api.proto`,
      `${newer}.${api.service}`,
      `${api.version}.${api.service}`,
    );
    try {
      return await client.call(method, request);
    } finally {
      client.close();
    }
  }

  it("disk v1alpha1 to v1beta3: diskID as decimal text, string-keyed maps, the renamed RPCs", async () => {
    const diskId = String(raw.diskNumber);
    for (const endpoint of ["disk-v1alpha1", "disk-v1beta1", "disk-v1beta2"]) {
      const { disk_locations: locations } = await ok(endpoint, "ListDiskLocations");
      expect(locations).toHaveProperty(diskId);
      await ok(endpoint, "Rescan");
      expect(await ok(endpoint, "PartitionDisk", { diskID: diskId })).toEqual({});
      // Upstream would truncate this to disk 4; here a diskID that is no uint32 is refused.
      for (const diskID of ["4294967300", "4x", ""]) {
        const bad = await call(endpoint, "PartitionDisk", { diskID });
        expect(bad.code, diskID).toBe(INVALID_ARGUMENT);
      }
    }
    expect(await ok("disk-v1alpha1", "GetDiskNumberByName", { disk_name: raw.page83 })).toEqual({
      disk_number: diskId,
    });
    const unknown = await call("disk-v1alpha1", "GetDiskNumberByName", { disk_name: "60ff" });
    expect(unknown.code).toBe(NOT_FOUND);
    expect(unknown.details).toContain("could not find disk with Page83 ID 60ff");
    for (const endpoint of ["disk-v1beta1", "disk-v1beta2"]) {
      const { diskIDs } = await ok(endpoint, "ListDiskIDs");
      expect((diskIDs as Record<string, unknown>)[diskId]).toEqual({
        identifiers: { page83: raw.page83, serialNumber: expect.any(String) },
      });
      expect(await ok(endpoint, "DiskStats", { diskID: diskId })).toEqual({
        diskSize: String(10 * 1024 ** 3),
      });
      expect((await call(endpoint, "DiskStats", { diskID: "42" })).code).toBe(NOT_FOUND);
    }
    // The disk v1 test brought disk 6 online.
    expect(await ok("disk-v1beta2", "GetAttachState", { diskID: "6" })).toEqual({ isOnline: true });
    await ok("disk-v1beta2", "SetAttachState", { diskID: "6", isOnline: false });
    expect(await ok("disk-v1beta2", "GetAttachState", { diskID: "6" })).toEqual({
      isOnline: false,
    });
    expect(await ok("disk-v1", "GetDiskState", { disk_number: 6 })).toEqual({ is_online: false });
    // v1beta3 is v1.
    const v1beta3 = "disk-v1beta3";
    expect((await ok(v1beta3, "ListDiskLocations")).disk_locations).toHaveProperty(diskId);
    const { diskIDs } = await ok(v1beta3, "ListDiskIDs");
    expect((diskIDs as Record<string, { page83: string }>)[diskId]?.page83).toBe(raw.page83);
    await ok(v1beta3, "Rescan");
    await ok(v1beta3, "PartitionDisk", { disk_number: raw.diskNumber });
    expect(await ok(v1beta3, "GetDiskStats", { disk_number: raw.diskNumber })).toEqual({
      total_bytes: String(10 * 1024 ** 3),
    });
    await ok(v1beta3, "SetDiskState", { disk_number: 6, is_online: true });
    expect(await ok(v1beta3, "GetDiskState", { disk_number: 6 })).toEqual({ is_online: true });
    // What a version did not have yet is not there (upstream: the method is not in its service).
    expect((await callMissing("disk-v1alpha1", "v1beta1", "ListDiskIDs")).code).toBe(UNIMPLEMENTED);
    expect((await callMissing("disk-v1alpha1", "v1beta1", "DiskStats")).code).toBe(UNIMPLEMENTED);
    expect((await callMissing("disk-v1beta1", "v1beta2", "GetAttachState")).code).toBe(
      UNIMPLEMENTED,
    );
    expect((await callMissing("disk-v1beta3", "v1alpha1", "GetDiskNumberByName")).code).toBe(
      UNIMPLEMENTED,
    );
  });

  it("filesystem v1alpha1 and v1beta1: LinkPath and IsMountPoint, PathContext ignored, an empty error", async () => {
    for (const endpoint of ["filesystem-v1alpha1", "filesystem-v1beta1"]) {
      const stage = `${kubelet}\\plugins\\wire\\${endpoint}\\globalmount`;
      const pod = `${kubelet}\\pods\\uid-2\\volumes\\${endpoint}`;
      expect(await ok(endpoint, "PathExists", { path: stage, context: "PLUGIN" })).toEqual({
        error: "",
        exists: false,
      });
      expect(await ok(endpoint, "Mkdir", { path: stage, context: "PLUGIN" })).toEqual({
        error: "",
      });
      // PathContext POD for a plugin path: ignored, as upstream since --kubelet-path.
      await ok(endpoint, "Mkdir", { path: `${kubelet}\\pods\\uid-2\\volumes`, context: "POD" });
      expect(await ok(endpoint, "LinkPath", { source_path: stage, target_path: pod })).toEqual({
        error: "",
      });
      expect(await ok(endpoint, "IsMountPoint", { path: pod })).toEqual({
        error: "",
        is_mount_point: true,
      });
      expect(await ok(endpoint, "IsMountPoint", { path: stage })).toEqual({
        error: "",
        is_mount_point: false,
      });
      expect(await ok(endpoint, "Rmdir", { path: pod, context: "POD" })).toEqual({ error: "" });
      expect(await ok(endpoint, "PathExists", { path: pod })).toEqual({
        error: "",
        exists: false,
      });
      const relative = await call(endpoint, "PathExists", { path: "var\\lib\\kubelet" });
      expect(relative.code).toBe(INVALID_ARGUMENT);
      expect(relative.details).toContain("not an absolute Windows path");
      const gone = await call(endpoint, "Rmdir", { path: pod });
      expect(gone.code).toBe(NOT_FOUND);
      expect(gone.details).toContain("The system cannot find the file specified");
      const outside = await call(endpoint, "LinkPath", {
        source_path: stage,
        target_path: `${kubelet}-evil\\link`,
      });
      expect(outside.code).toBe(PERMISSION_DENIED);
      expect(existsSync(join(bin.ready.simulator.root, "var", "lib", "kubelet-evil"))).toBe(false);
    }
    expect((await callMissing("filesystem-v1beta1", "v1beta2", "IsSymlink")).code).toBe(
      UNIMPLEMENTED,
    );
    await ok("filesystem-v1", "Rmdir", { path: `${kubelet}\\plugins\\wire`, force: true });
  });

  it("volume v1alpha1 to v1beta2: disk_id, path and the renamed RPCs", async () => {
    const diskId = String(raw.diskNumber);
    const [volumeId] = (await ok("volume-v1alpha1", "ListVolumesOnDisk", { disk_id: diskId }))
      .volume_ids as string[];
    expect(volumeId).toMatch(/^\\\\\?\\Volume\{[0-9a-f-]+\}\\$/);
    const id = { volume_id: volumeId };
    for (const endpoint of ["volume-v1alpha1", "volume-v1beta1", "volume-v1beta2"]) {
      const beta = endpoint !== "volume-v1alpha1";
      const mount = `${kubelet}\\plugins\\vol\\${endpoint}\\globalmount`;
      await ok("filesystem-v1", "Mkdir", { path: mount });
      expect(await ok(endpoint, "ListVolumesOnDisk", { disk_id: diskId })).toEqual({
        volume_ids: [volumeId],
      });
      await ok(endpoint, "FormatVolume", id);
      expect(await ok(endpoint, "IsVolumeFormatted", id)).toEqual({ formatted: true });
      await ok(endpoint, "MountVolume", { ...id, path: mount });
      if (beta) {
        expect(await ok(endpoint, "GetVolumeIDFromMount", { mount })).toEqual(id);
        const stats = await ok(endpoint, "VolumeStats", id);
        expect(BigInt(stats.volumeSize as string)).toBeGreaterThan(0n);
        expect(typeof stats.volumeUsedSize).toBe("string");
        expect(await ok(endpoint, "GetVolumeDiskNumber", id)).toEqual({ diskNumber: diskId });
      }
      await ok(endpoint, "ResizeVolume", { ...id, size: "0" });
      if (endpoint === "volume-v1beta2") await ok(endpoint, "WriteVolumeCache", id);
      await ok(endpoint, "DismountVolume", { ...id, path: mount });
      const unmounted = beta
        ? await call(endpoint, "GetVolumeIDFromMount", { mount })
        : await call("volume-v1", "GetVolumeIDFromTargetPath", { target_path: mount });
      expect(unmounted.code).toBe(NOT_FOUND);
      const bad = await call(endpoint, "ListVolumesOnDisk", { disk_id: "disk4" });
      expect(bad.code).toBe(INVALID_ARGUMENT);
    }
    expect((await callMissing("volume-v1alpha1", "v1beta1", "VolumeStats", id)).code).toBe(
      UNIMPLEMENTED,
    );
    expect((await callMissing("volume-v1beta1", "v1beta2", "WriteVolumeCache", id)).code).toBe(
      UNIMPLEMENTED,
    );
  });

  it("smb v1alpha1 to v1beta2: mappings made and removed; the older responses carry an empty error", async () => {
    for (const endpoint of ["smb-v1alpha1", "smb-v1beta1", "smb-v1beta2"]) {
      const legacy = endpoint !== "smb-v1beta2" ? { error: "" } : {};
      const local = `${kubelet}\\plugins\\smb\\${endpoint}\\globalmount`;
      await ok("filesystem-v1", "Mkdir", { path: `${kubelet}\\plugins\\smb\\${endpoint}` });
      const wrong = await call(endpoint, "NewSmbGlobalMapping", {
        remote_path: world.share,
        local_path: local,
        username: world.smbUser,
        password: "wrong-Pa55word!",
      });
      expect(wrong.code).not.toBe(OK);
      expect(wrong.details).not.toContain("wrong-Pa55word!");
      expect(
        await ok(endpoint, "NewSmbGlobalMapping", {
          remote_path: world.share,
          local_path: local,
          username: world.smbUser,
          password: world.smbPassword,
        }),
      ).toEqual(legacy);
      expect(await ok("filesystem-v1", "IsSymlink", { path: local })).toEqual({ is_symlink: true });
      await ok("filesystem-v1", "Rmdir", { path: local });
      expect(await ok(endpoint, "RemoveSmbGlobalMapping", { remote_path: world.share })).toEqual(
        legacy,
      );
    }
  });

  it("iscsi v1alpha1: v1alpha2 without SetMutualChapSecret", async () => {
    const endpoint = "iscsi-v1alpha1";
    await ok(endpoint, "AddTargetPortal", { target_portal: portal });
    expect(await ok(endpoint, "ListTargetPortals")).toEqual({
      target_portals: [{ target_address: world.portal.targetAddress, target_port: 3260 }],
    });
    expect(await ok(endpoint, "DiscoverTargetPortal", { target_portal: portal })).toEqual({
      iqns: [world.iqn],
    });
    const target = { target_portal: portal, iqn: world.iqn };
    await ok(endpoint, "ConnectTarget", {
      ...target,
      auth_type: "ONE_WAY_CHAP",
      chap_username: world.chap.username,
      chap_secret: world.chap.secret,
    });
    const { diskIDs } = await ok(endpoint, "GetTargetDisks", target);
    expect(diskIDs).toHaveLength(1);
    await ok(endpoint, "DisconnectTarget", target);
    expect(await ok(endpoint, "GetTargetDisks", target)).toEqual({ diskIDs: [] });
    await ok(endpoint, "RemoveTargetPortal", { target_portal: portal });
    expect(await ok(endpoint, "ListTargetPortals")).toEqual({ target_portals: [] });
    const noPortal = await call(endpoint, "AddTargetPortal", {});
    expect(noPortal.code).toBe(INVALID_ARGUMENT);
    const mutual = await callMissing(endpoint, "v1alpha2", "SetMutualChapSecret", {
      MutualChapSecret: "mutual-secret-16",
    });
    expect(mutual.code).toBe(UNIMPLEMENTED);
  });

  it("the client's deadline reaches the library: a hung cmdlet ends as DEADLINE_EXCEEDED", async () => {
    const faults = join(bin.ready.simulator.dir, "faults.json");
    writeFileSync(
      faults,
      JSON.stringify([{ command: "Get-Disk", action: "delay", delayMs: 600_000, times: 1 }]),
    );
    const reply = await call("disk-v1", "GetDiskState", { disk_number: 1 }, 1_500);
    expect(reply.code).toBe(DEADLINE_EXCEEDED);
    // The hung process was ended and replaced: the next call answers.
    expect(await ok("disk-v1", "GetDiskState", { disk_number: 1 })).toEqual({ is_online: true });
    expect(JSON.parse(readFileSync(faults, "utf8"))).toEqual([
      expect.objectContaining({ times: 0 }),
    ]);
  });

  it("a client cancellation reaches the library: the hung call is abandoned, the next one answers", async () => {
    const faults = join(bin.ready.simulator.dir, "faults.json");
    writeFileSync(
      faults,
      JSON.stringify([{ command: "Get-Disk", action: "delay", delayMs: 600_000, times: 1 }]),
    );
    const cancel = new AbortController();
    called.get("disk-v1")?.add("GetDiskState");
    const pending = bin
      .client("disk-v1")
      .call("GetDiskState", { disk_number: 1 }, { signal: cancel.signal });
    while ((JSON.parse(readFileSync(faults, "utf8")) as { times: number }[])[0]?.times !== 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    cancel.abort();
    const cancelled = await pending.then(
      (reply) => reply.code,
      () => CANCELLED,
    );
    expect(cancelled).toBe(CANCELLED);
    // A hang guard, not a speed bound: had the hung process been kept, this call would queue behind it.
    const next = await call("disk-v1", "GetDiskState", { disk_number: 1 }, 60_000);
    expect(next).toMatchObject({ code: OK, message: { is_online: true } });
  });

  it("system v1alpha1: StopService", async () => {
    await ok("system-v1alpha1", "StopService", { name: "MSiSCSI", force: false });
    expect(await ok("system-v1alpha1", "GetService", { name: "MSiSCSI" })).toMatchObject({
      status: "STOPPED",
    });
  });

  it("every RPC of every served version was driven over the wire", () => {
    for (const api of servedApis) {
      const endpoint = `${api.group}-${api.version}`;
      const methods = bin.client(endpoint).methods();
      expect([...(called.get(endpoint) ?? [])].sort(), endpoint).toEqual(methods.sort());
    }
  });
});
