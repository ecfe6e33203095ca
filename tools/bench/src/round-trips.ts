// Round trips per operation: how many scripts (exec calls, one PowerShell round trip each) and how
// many simulated cmdlet calls each library method and each CSI operation makes, on the simulator.
// On real Windows every Storage, SMB and iSCSI cmdlet is a CIM query or method, so these counts,
// not the simulator's milliseconds, are what a driver feels.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createNodeGroups, type NodeGroups } from "@csi-proxy/demo/node";
import { kubeletPaths, type KubeletPaths } from "@csi-proxy/demo/paths";
import { simulatedArray, simulatedShareLinks } from "@csi-proxy/demo/sim-array";
import { demoScenario, world } from "@csi-proxy/demo/world";
import { createPowerShell, isCsiProxyError, subscribeExec, type PowerShell } from "@csi-proxy/exec";
import { Simulator, windowsFilesystemHost, type CallLogEntry } from "@csi-proxy/winsim";

/** Which path of a method or operation a row measures. */
export type RoundTripPath = "common" | "already done";

/** One script a measured call made, with the simulated cmdlet calls logged while it ran. */
export interface ScriptTrace {
  /** The exec core's script name (`Script.name`). */
  readonly script: string;
  /** The simulated cmdlets it called, in order (`Get-Disk`, `New-Partition`, ...). */
  readonly cmdlets: readonly string[];
  /** Queries it repeated while nothing changed in between (see {@link repeatedQueries}). */
  readonly repeats: readonly string[];
  /** Its call log entries. */
  readonly entries: readonly CallLogEntry[];
}

/** Scripts and cmdlet calls of one measured call (a method, or one step of a CSI operation). */
export interface Count {
  readonly scripts: number;
  readonly cmdlets: number;
  /** Queries repeated within one script when the first answer still served, summed over scripts. */
  readonly repeats: number;
  /**
   * The same, over all the call's cmdlet calls in order, across its scripts: what one script
   * doing the whole call could save (a re-check under a lock may be deliberate).
   */
  readonly repeatsAcross: number;
  readonly traces: readonly ScriptTrace[];
}

/** A public method of a group that talks to PowerShell, on one path. */
export interface MethodRow extends Count {
  readonly group: "disk" | "volume" | "smb" | "iscsi" | "system";
  readonly method: string;
  readonly path: RoundTripPath;
}

/** One group call inside a CSI operation. */
export interface StepRow extends Count {
  /** `group.method`, as the driver calls it. */
  readonly call: string;
}

/** A CSI operation as the example driver and the demo compose it, with upstream's v1 count. */
export interface CsiRow extends Count {
  readonly operation: string;
  readonly path: RoundTripPath;
  readonly steps: readonly StepRow[];
  /** PowerShell processes upstream's v1 PowerShell implementation ran (one per cmdlet pipeline). */
  readonly upstreamScripts: number;
  /** How the upstream count was taken. */
  readonly upstreamNote: string;
}

/** Everything the round-trip measurement produces. */
export interface RoundTrips {
  readonly methods: readonly MethodRow[];
  readonly csi: readonly CsiRow[];
}

/** A cmdlet that only reads (its first answer serves a second time if nothing changed since). */
const isQuery = (command: string): boolean => /^Get-/.test(command);

/**
 * Queries a script repeated with the same parameters and the same piped object while no
 * state-changing cmdlet ran in between in that script: the first answer would have served.
 * The call log carries no script id, so cmdlet calls are attributed to the script that was running
 * when they were logged (one PowerShell process, one call at a time; see {@link Recorder}).
 */
export function repeatedQueries(entries: readonly CallLogEntry[]): string[] {
  const repeats: string[] = [];
  let seen = new Set<string>();
  for (const entry of entries) {
    if (!isQuery(entry.command)) {
      seen = new Set();
      continue;
    }
    const key = `${entry.command} ${JSON.stringify(entry.parameters)} ${JSON.stringify(entry.target)}`;
    if (seen.has(key)) repeats.push(entry.command);
    seen.add(key);
  }
  return repeats;
}

/**
 * Counts the scripts a call makes (on the exec core's diagnostics channels) and the cmdlet calls
 * the simulator logs while each runs. It needs a pool of one process and calls made one at a
 * time: then the log entries written between a script's start and end events are that script's.
 * If a method ever ran two scripts at once the attribution would blur, so that throws.
 */
export class Recorder {
  constructor(private readonly sim: Simulator) {}

  async count(call: () => Promise<unknown>): Promise<Count> {
    const traces: ScriptTrace[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    let cursor = 0;
    const onStart = (): void => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      cursor = this.sim.calls().length;
    };
    const onDone = (event: { script: string }): void => {
      inFlight -= 1;
      const entries = this.sim.calls().slice(cursor);
      cursor += entries.length;
      traces.push({
        script: event.script,
        cmdlets: entries.map((e) => e.command),
        repeats: repeatedQueries(entries),
        entries,
      });
    };
    this.sim.clearCalls();
    const stops = [
      subscribeExec("start", onStart),
      subscribeExec("end", onDone),
      subscribeExec("error", onDone),
    ];
    try {
      await call();
    } finally {
      for (const stop of stops) stop();
    }
    if (maxInFlight > 1) throw new Error("scripts overlapped: cmdlet calls cannot be attributed");
    return sum(traces);
  }
}

function sum(traces: readonly ScriptTrace[]): Count {
  return {
    scripts: traces.length,
    cmdlets: traces.reduce((n, t) => n + t.cmdlets.length, 0),
    repeats: traces.reduce((n, t) => n + t.repeats.length, 0),
    repeatsAcross: repeatedQueries(traces.flatMap((t) => t.entries)).length,
    traces,
  };
}

/** A simulated node (the demo's `scenarios.demoNode()`) with the six groups on one process. */
interface Node {
  readonly sim: Simulator;
  readonly shell: PowerShell;
  readonly groups: NodeGroups;
  readonly paths: KubeletPaths;
  readonly recorder: Recorder;
}

async function createNode(pwsh: string): Promise<Node> {
  const sim = await Simulator.create(demoScenario());
  const shell = createPowerShell(
    sim.shellOptions({ executable: pwsh, mode: "session", poolSize: 1 }),
  );
  const paths = kubeletPaths(join(sim.root, "var", "lib", "kubelet"), "posix");
  mkdirSync(paths.root, { recursive: true });
  const groups = createNodeGroups(shell, {
    pathStyle: "posix",
    kubeletRoot: paths.root,
    smbLinks: simulatedShareLinks(sim),
    // Mount points as Windows shows them (folders), not as the simulator stores them (links).
    fsHost: windowsFilesystemHost(sim),
  });
  return { sim, shell, groups, paths, recorder: new Recorder(sim) };
}

async function disposeNode(node: Node): Promise<void> {
  await node.shell.close();
  await node.sim.dispose();
}

const { portal, iqn, chap } = world;
const chapLogin = {
  targetPortal: portal,
  iqn,
  authType: "ONE_WAY_CHAP",
  chapUsername: chap.username,
  chapSecret: chap.secret,
} as const;

/** Every public method of the five PowerShell groups, common path then already-done path. */
async function measureMethods(node: Node): Promise<MethodRow[]> {
  const { system, iscsi, disk, volume, filesystem, smb } = node.groups;
  const { paths, recorder } = node;
  const rows: MethodRow[] = [];
  const m = async (
    group: MethodRow["group"],
    method: string,
    path: RoundTripPath,
    call: () => Promise<unknown>,
  ): Promise<void> => {
    rows.push({ group, method, path, ...(await recorder.count(call)) });
  };
  const service = { name: "MSiSCSI" };

  await m("system", "getBiosSerialNumber", "common", () => system.getBiosSerialNumber());
  await m("system", "getService", "common", () => system.getService(service));
  // The scenario's MSiSCSI is stopped: start it, start it again, stop it, stop it again.
  await m("system", "startService", "common", () => system.startService(service));
  await m("system", "startService", "already done", () => system.startService(service));
  await m("system", "stopService", "common", () => system.stopService(service));
  await m("system", "stopService", "already done", () => system.stopService(service));
  await system.startService(service);

  await m("iscsi", "listTargetPortals", "common", () => iscsi.listTargetPortals());
  await m("iscsi", "addTargetPortal", "common", () =>
    iscsi.addTargetPortal({ targetPortal: portal }),
  );
  await m("iscsi", "addTargetPortal", "already done", () =>
    iscsi.addTargetPortal({ targetPortal: portal }),
  );
  await m("iscsi", "discoverTargetPortal", "common", () =>
    iscsi.discoverTargetPortal({ targetPortal: portal }),
  );
  await m("iscsi", "connectTarget", "common", () => iscsi.connectTarget(chapLogin));
  await m("iscsi", "connectTarget", "already done", () => iscsi.connectTarget(chapLogin));
  let diskNumber = -1;
  await m("iscsi", "getTargetDisks", "common", async () => {
    diskNumber = (await iscsi.getTargetDisks({ targetPortal: portal, iqn })).diskIds[0] ?? -1;
  });
  if (diskNumber < 0) throw new Error("the demo node's iSCSI target exposes no disk");
  await m("iscsi", "listSessionDisks", "common", () => iscsi.listSessionDisks());
  await m("iscsi", "setMutualChapSecret", "common", () =>
    iscsi.setMutualChapSecret({ mutualChapSecret: "mutual-secret-1" }),
  );

  await m("disk", "rescan", "common", () => disk.rescan());
  let page83 = "";
  await m("disk", "listDiskIds", "common", async () => {
    page83 = (await disk.listDiskIds()).diskIds.get(diskNumber)?.page83 ?? "";
  });
  await m("disk", "listDiskLocations", "common", () => disk.listDiskLocations());
  await m("disk", "getDiskNumberByPage83", "common", () => disk.getDiskNumberByPage83({ page83 }));
  await m("disk", "getDiskState", "common", () => disk.getDiskState({ diskNumber }));
  await m("disk", "getDiskStats", "common", () => disk.getDiskStats({ diskNumber }));
  const online = { diskNumber, isOnline: true, clearReadOnly: true };
  const { isOnline } = await disk.getDiskState({ diskNumber });
  await m("disk", "setDiskState", isOnline ? "already done" : "common", () =>
    disk.setDiskState(online),
  );
  if (!isOnline) await m("disk", "setDiskState", "already done", () => disk.setDiskState(online));
  await m("disk", "partitionDisk", "common", () => disk.partitionDisk({ diskNumber }));
  await m("disk", "partitionDisk", "already done", () => disk.partitionDisk({ diskNumber }));

  let volumeId = "";
  await m("volume", "listVolumesOnDisk", "common", async () => {
    volumeId = (await volume.listVolumesOnDisk({ diskNumber })).volumeIds[0] ?? "";
  });
  await m("volume", "listVolumeDisks", "common", () => volume.listVolumeDisks());
  await m("volume", "isVolumeFormatted", "common", () => volume.isVolumeFormatted({ volumeId }));
  // formatVolume always formats (the caller checks isVolumeFormatted): it has no already-done path.
  await m("volume", "formatVolume", "common", () => volume.formatVolume({ volumeId }));
  await filesystem.mkdir({ path: paths.blockStaging });
  const mount = { volumeId, targetPath: paths.blockStaging };
  await m("volume", "mountVolume", "common", () => volume.mountVolume(mount));
  await m("volume", "mountVolume", "already done", () => volume.mountVolume(mount));
  await filesystem.mkdir({ path: paths.blockPodParent });
  await filesystem.createSymlink({ sourcePath: paths.blockStaging, targetPath: paths.blockPod });
  await m("volume", "getVolumeStats", "common", () => volume.getVolumeStats({ volumeId }));
  await m("volume", "getDiskNumberFromVolumeId", "common", () =>
    volume.getDiskNumberFromVolumeId({ volumeId }),
  );
  await m("volume", "getVolumeIdFromTargetPath", "common", () =>
    volume.getVolumeIdFromTargetPath({ targetPath: paths.blockStaging }),
  );
  await m("volume", "getClosestVolumeIdFromTargetPath", "common", () =>
    volume.getClosestVolumeIdFromTargetPath({ targetPath: paths.blockPod }),
  );
  await m("volume", "listVolumeMountPoints", "common", () =>
    volume.listVolumeMountPoints({ volumeId }),
  );
  await m("volume", "writeVolumeCache", "common", () => volume.writeVolumeCache({ volumeId }));
  simulatedArray(node.sim).growLun(diskNumber, world.grownLunBytes);
  await m("volume", "resizeVolume", "common", () =>
    volume.resizeVolume({ volumeId, sizeBytes: 0 }),
  );
  await m("volume", "resizeVolume", "already done", () =>
    volume.resizeVolume({ volumeId, sizeBytes: 0 }),
  );
  await filesystem.rmdir({ path: paths.blockPod, force: true });
  await m("volume", "unmountVolume", "common", () => volume.unmountVolume(mount));
  await m("volume", "unmountVolume", "already done", () => volume.unmountVolume(mount));

  const mapping = {
    remotePath: world.shareSubPath,
    localPath: paths.smbStaging,
    username: world.smbUser,
    password: world.smbPassword,
  };
  await m("smb", "listSmbGlobalMappings", "common", () => smb.listSmbGlobalMappings());
  await m("smb", "newSmbGlobalMapping", "common", () => smb.newSmbGlobalMapping(mapping));
  await m("smb", "newSmbGlobalMapping", "already done", () => smb.newSmbGlobalMapping(mapping));
  await filesystem.rmdir({ path: paths.smbStaging, force: true });
  const remote = { remotePath: world.shareSubPath };
  await m("smb", "removeSmbGlobalMapping", "common", () => smb.removeSmbGlobalMapping(remote));
  await m("smb", "removeSmbGlobalMapping", "already done", () =>
    smb.removeSmbGlobalMapping(remote),
  );

  await m("disk", "setDiskState", "common", () =>
    disk.setDiskState({ diskNumber, isOnline: false }),
  );
  const logout = { targetPortal: portal, iqn };
  await m("iscsi", "disconnectTarget", "common", () => iscsi.disconnectTarget(logout));
  await m("iscsi", "disconnectTarget", "already done", () => iscsi.disconnectTarget(logout));
  await m("iscsi", "removeTargetPortal", "common", () =>
    iscsi.removeTargetPortal({ targetPortal: portal }),
  );
  await m("iscsi", "removeTargetPortal", "already done", () =>
    iscsi.removeTargetPortal({ targetPortal: portal }),
  );
  // setDiskState offline is measured above as a second common path; keep one common row per method.
  return rows.filter(
    (r, i) =>
      rows.findIndex((o) => o.group === r.group && o.method === r.method && o.path === r.path) ===
      i,
  );
}

/** Runs the steps of one CSI operation, counting each group call. */
class Operation {
  readonly steps: StepRow[] = [];
  constructor(private readonly recorder: Recorder) {}

  async step<T>(call: string, run: () => Promise<T>): Promise<T> {
    let result: T | undefined;
    const count = await this.recorder.count(async () => {
      result = await run();
    });
    this.steps.push({ call, ...count });
    return result as T;
  }
}

type Upstream = Pick<CsiRow, "upstreamScripts" | "upstreamNote">;

/**
 * Upstream's v1 PowerShell implementation: one `powershell -Mta -NoProfile -Command` process per
 * host call (shared/reference/csi-proxy-api.md § 0.2), for the call sequence democratic-csi makes
 * (shared/reference/csi-proxy-v1-server.md § 1.4 "Call sequences"); the host calls' commands are
 * in csi-proxy-api.md § 1.2 (disk), § 2.2–2.3 (volume), § 3.3 (filesystem: only PathValid was
 * PowerShell), § 4.3–4.4 (SMB), § 5.2 (iSCSI).
 */
const upstream: Record<string, Upstream> = {
  // AddTargetPortal 1 + ConnectTarget 1 + Rescan 1 + GetTargetDisks 1 + ListVolumesOnDisk 1 +
  // PartitionDisk 4 (IsDiskInitialized, InitializeDisk, BasicPartitionsExist, CreateBasicPartition;
  // § 1.1/1.2) + IsVolumeFormatted 1 + FormatVolume 1 + MountVolume 1; PathExists/Mkdir are Go.
  "NodeStage, block via iSCSI|common": {
    upstreamScripts: 12,
    upstreamNote:
      "AddTargetPortal, ConnectTarget, Rescan, GetTargetDisks, ListVolumesOnDisk, PartitionDisk ×4, IsVolumeFormatted, FormatVolume, MountVolume",
  },
  // The same calls; PartitionDisk and FormatVolume skipped (volumes found, formatted); ConnectTarget
  // and MountVolume fail "already" and democratic-csi accepts those errors (§ 1.4).
  "NodeStage, block via iSCSI|already done": {
    upstreamScripts: 7,
    upstreamNote:
      "AddTargetPortal, ConnectTarget (already logged in), Rescan, GetTargetDisks, ListVolumesOnDisk, IsVolumeFormatted, MountVolume (already in use)",
  },
  // IsSMBMapped 1 (errors: not mapped) + NewSMBGlobalMapping 1 + NewSMBLink 1 (api § 4.3/4.4).
  "NodeStage, SMB|common": {
    upstreamScripts: 3,
    upstreamNote: "IsSMBMapped, New-SmbGlobalMapping, NewSMBLink (New-Item)",
  },
  // IsSMBMapped 1 + PathValid 1 (Test-Path) + NewSMBLink 1, after democratic-csi's Rmdir of the link.
  "NodeStage, SMB|already done": {
    upstreamScripts: 3,
    upstreamNote: "IsSMBMapped, PathValid (Test-Path), NewSMBLink",
  },
  // PathExists ×2, IsSymlink, CreateSymlink: all Go (api § 3.3).
  "NodePublish|common": { upstreamScripts: 0, upstreamNote: "filesystem calls, all in Go" },
  "NodeUnpublish|common": { upstreamScripts: 0, upstreamNote: "filesystem calls, all in Go" },
  // GetTargetDisks 1 + ListVolumesOnDisk 1 + GetVolumeStats 1 (PathExists is Go).
  "NodeGetVolumeStats|common": {
    upstreamScripts: 3,
    upstreamNote: "GetTargetDisks, ListVolumesOnDisk, GetVolumeStats",
  },
  // Rescan 1 + ResizeVolume(0) 3 (Get-PartitionSupportedSize, partition size, Resize-Partition;
  // api § 2.3) + GetDiskStats 1 + GetVolumeStats 1.
  "NodeExpand|common": {
    upstreamScripts: 6,
    upstreamNote: "Rescan, ResizeVolume ×3, GetDiskStats, GetVolumeStats",
  },
  // WriteVolumeCache 1 + UnmountVolume 2 (it writes the cache again first; api § 2.2) +
  // DisconnectTarget 1; Rmdir is Go.
  "NodeUnstage, block via iSCSI|common": {
    upstreamScripts: 4,
    upstreamNote: "WriteVolumeCache, UnmountVolume ×2, DisconnectTarget",
  },
  // The same calls again; each fails ("not valid", ObjectNotFound) and democratic-csi accepts it.
  "NodeUnstage, block via iSCSI|already done": {
    upstreamScripts: 4,
    upstreamNote: "the same four, each failing with an accepted error",
  },
  // Rmdir (Go) + RemoveSmbGlobalMapping 1.
  "NodeUnstage, SMB|common": { upstreamScripts: 1, upstreamNote: "Remove-SmbGlobalMapping" },
  "NodeUnstage, SMB|already done": {
    upstreamScripts: 1,
    upstreamNote: "Remove-SmbGlobalMapping (fails: no mapping; accepted)",
  },
};

/**
 * The CSI node operations on a fresh node, as `examples/driver-node` (stage/unstage) and the demo
 * (`tools/demo`: iSCSI login, publish, expand, stats) compose the groups. Each retry runs the
 * operation again on the host it left (kubelet retries a stage that timed out).
 */
async function measureCsi(node: Node): Promise<CsiRow[]> {
  const { system, iscsi, disk, volume, filesystem, smb } = node.groups;
  const { paths, recorder } = node;
  const rows: CsiRow[] = [];
  const op = async (
    operation: string,
    path: RoundTripPath,
    run: (o: Operation) => Promise<void>,
  ): Promise<void> => {
    const o = new Operation(recorder);
    await run(o);
    const found = upstream[`${operation}|${path}`];
    if (found === undefined) throw new Error(`no upstream count for ${operation}, ${path}`);
    rows.push({
      operation,
      path,
      steps: o.steps,
      ...sum(o.steps.flatMap((s) => s.traces)),
      ...found,
    });
  };

  // The cold iSCSI NodeStage: service check, portal, CHAP login, find disk, online,
  // partition, list volumes, format, mkdir, mount (the example driver's stageBlockVolume after
  // the demo's iSCSI login; the login makes the LUN known, so no rescan or page 83 lookup). A
  // retry stops once it finds the volume mounted, as the example driver's stagedVolume() does.
  let volumeId = "";
  const stageBlock = async (o: Operation): Promise<void> => {
    const { statusName } = await o.step("system.getService", () =>
      system.getService({ name: "MSiSCSI" }),
    );
    if (statusName !== "RUNNING")
      await o.step("system.startService", () => system.startService({ name: "MSiSCSI" }));
    await o.step("iscsi.addTargetPortal", () => iscsi.addTargetPortal({ targetPortal: portal }));
    await o.step("iscsi.connectTarget", () => iscsi.connectTarget(chapLogin));
    const { diskIds } = await o.step("iscsi.getTargetDisks", () =>
      iscsi.getTargetDisks({ targetPortal: portal, iqn }),
    );
    const diskNumber = diskIds[0] ?? -1;
    // The example driver's stagedVolume(): a retry finds this disk's volume at the staging path.
    if ((await filesystem.pathExists({ path: paths.blockStaging })).exists) {
      const mounted = await o
        .step("volume.getVolumeIdFromTargetPath", () =>
          volume.getVolumeIdFromTargetPath({ targetPath: paths.blockStaging }),
        )
        .catch((error: unknown) => {
          if (isCsiProxyError(error) && error.code === "NOT_FOUND") return undefined;
          throw error;
        });
      if (mounted !== undefined) {
        const owner = await o.step("volume.getDiskNumberFromVolumeId", () =>
          volume.getDiskNumberFromVolumeId({ volumeId: mounted.volumeId }),
        );
        if (owner.diskNumber === diskNumber) return;
      }
    }
    await o.step("disk.setDiskState", () =>
      disk.setDiskState({ diskNumber, isOnline: true, clearReadOnly: true }),
    );
    await o.step("disk.partitionDisk", () => disk.partitionDisk({ diskNumber }));
    const { volumeIds } = await o.step("volume.listVolumesOnDisk", () =>
      volume.listVolumesOnDisk({ diskNumber }),
    );
    volumeId = volumeIds[0] ?? "";
    const { formatted } = await o.step("volume.isVolumeFormatted", () =>
      volume.isVolumeFormatted({ volumeId }),
    );
    if (!formatted)
      await o.step("volume.formatVolume", () =>
        volume.formatVolume({ volumeId, fileSystem: "NTFS", label: "pvc-6f1c2a" }),
      );
    await o.step("filesystem.mkdir", () => filesystem.mkdir({ path: paths.blockStaging }));
    await o.step("volume.mountVolume", () =>
      volume.mountVolume({ volumeId, targetPath: paths.blockStaging }),
    );
  };
  await op("NodeStage, block via iSCSI", "common", stageBlock);
  await op("NodeStage, block via iSCSI", "already done", stageBlock);

  await op("NodePublish", "common", async (o) => {
    await o.step("filesystem.mkdir", () => filesystem.mkdir({ path: paths.blockPodParent }));
    await o.step("filesystem.createSymlink", () =>
      filesystem.createSymlink({ sourcePath: paths.blockStaging, targetPath: paths.blockPod }),
    );
  });
  await op("NodeGetVolumeStats", "common", async (o) => {
    const { volumeId: id } = await o.step("volume.getClosestVolumeIdFromTargetPath", () =>
      volume.getClosestVolumeIdFromTargetPath({ targetPath: paths.blockPod }),
    );
    await o.step("volume.getVolumeStats", () => volume.getVolumeStats({ volumeId: id }));
  });
  const { diskNumber } = await volume.getDiskNumberFromVolumeId({ volumeId });
  simulatedArray(node.sim).growLun(diskNumber, world.grownLunBytes);
  // The demo's expansion: rescan, grow to the maximum, read the new size.
  await op("NodeExpand", "common", async (o) => {
    await o.step("disk.rescan", () => disk.rescan());
    await o.step("volume.resizeVolume", () => volume.resizeVolume({ volumeId, sizeBytes: 0 }));
    await o.step("volume.getVolumeStats", () => volume.getVolumeStats({ volumeId }));
  });
  await op("NodeUnpublish", "common", async (o) => {
    await o.step("filesystem.rmdir", () => filesystem.rmdir({ path: paths.blockPod, force: true }));
  });
  // The example driver's unstageBlockVolume, then the iSCSI logout (as upstream's callers do).
  const unstageBlock = async (o: Operation): Promise<void> => {
    const { exists } = await o.step("filesystem.pathExists", () =>
      filesystem.pathExists({ path: paths.blockStaging }),
    );
    if (exists) {
      let id: string | undefined;
      try {
        ({ volumeId: id } = await o.step("volume.getVolumeIdFromTargetPath", () =>
          volume.getVolumeIdFromTargetPath({ targetPath: paths.blockStaging }),
        ));
      } catch (error) {
        if (!isCsiProxyError(error) || error.code !== "NOT_FOUND") throw error;
      }
      if (id !== undefined)
        await o.step("volume.unmountVolume", () =>
          volume.unmountVolume({ volumeId: id, targetPath: paths.blockStaging }),
        );
      await o.step("filesystem.rmdir", () => filesystem.rmdir({ path: paths.blockStaging }));
    }
    await o.step("iscsi.disconnectTarget", () =>
      iscsi.disconnectTarget({ targetPortal: portal, iqn }),
    );
  };
  await op("NodeUnstage, block via iSCSI", "common", unstageBlock);
  await op("NodeUnstage, block via iSCSI", "already done", unstageBlock);

  // The example driver's stageSmbVolume / unstageSmbVolume.
  const stageSmb = async (o: Operation): Promise<void> => {
    await o.step("smb.newSmbGlobalMapping", () =>
      smb.newSmbGlobalMapping({
        remotePath: world.shareSubPath,
        localPath: paths.smbStaging,
        username: world.smbUser,
        password: world.smbPassword,
      }),
    );
  };
  await op("NodeStage, SMB", "common", stageSmb);
  await op("NodeStage, SMB", "already done", stageSmb);
  const unstageSmb = async (o: Operation): Promise<void> => {
    await o.step("filesystem.rmdir", () =>
      filesystem.rmdir({ path: paths.smbStaging, force: true }),
    );
    await o.step("smb.removeSmbGlobalMapping", () =>
      smb.removeSmbGlobalMapping({ remotePath: world.shareSubPath }),
    );
  };
  await op("NodeUnstage, SMB", "common", unstageSmb);
  await op("NodeUnstage, SMB", "already done", unstageSmb);
  return rows;
}

/** Every public method of the five PowerShell groups, on a fresh simulated node. */
export async function measureMethodRoundTrips(pwsh: string): Promise<MethodRow[]> {
  const node = await createNode(pwsh);
  try {
    return await measureMethods(node);
  } finally {
    await disposeNode(node);
  }
}

/** The CSI node operations, on a fresh simulated node. */
export async function measureCsiRoundTrips(pwsh: string): Promise<CsiRow[]> {
  const node = await createNode(pwsh);
  try {
    return await measureCsi(node);
  } finally {
    await disposeNode(node);
  }
}

/** Methods on one fresh simulated node, CSI operations on another, one PowerShell process each. */
export async function measureRoundTrips(pwsh: string): Promise<RoundTrips> {
  const methods = await measureMethodRoundTrips(pwsh);
  return { methods, csi: await measureCsiRoundTrips(pwsh) };
}
