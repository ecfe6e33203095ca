import { isAbsolute, join } from "node:path";
import { defaultIdentity, deviceIds } from "./disk-defaults.js";
import {
  busTypes,
  offlineReasons,
  type DiskSpec,
  type PartitionSpec,
  type ScenarioSpec,
} from "./spec.js";
import { buildIscsiState } from "./iscsi.js";
import { buildSmbState } from "./smb.js";
import { buildSystemState } from "./system.js";
import { GuidSource } from "./seeded-guid.js";
import { partitionStyles } from "./state-views.js";
import type { DiskState, PartitionState, SimState, VolumeState } from "./types.js";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const gptBasic = "{ebd0a0a2-b9e5-4433-87c0-68b6b72699c7}";
const gptReserved = "{e3c9e316-0b5c-4db8-817d-f92df00215ae}";
const gptEfi = "{c12a7328-f81f-11d2-ba4b-00a0c93ec93b}";

// The GUIDs of the build in progress: nested builds (an iSCSI target's LUNs) draw from the
// outer scenario's seed, so one seed covers every disk the scenario declares.
let guids = new GuidSource();

/** A mount the simulator must create on disk: a Linux folder linked to a volume's backing folder. */
export interface MountSpec {
  /** The Linux folder to create, with a trailing `/`. */
  path: string;
  /** The GUID of the volume whose backing folder it links to. */
  volume: string;
}

/** What `buildScenario` makes of a spec: the state.json content and the mount links to create. */
export interface BuiltScenario {
  /** The state.json content. */
  state: SimState;
  /** The mount links to create. */
  mounts: MountSpec[];
}

/** The default system disk: EFI, MSR and C: (NTFS, mounted on '/'), as on an Azure Gen2 VM. */
export function systemDiskSpec(): DiskSpec {
  return {
    number: 0,
    size: 127 * GiB,
    busType: "SAS",
    location: "Integrated : Adapter 0 : Port 0 : Target 0 : LUN 0",
    partitionStyle: "GPT",
    isSystem: true,
    isBoot: true,
    partitions: [
      { size: 100 * MiB, fileSystem: "FAT32", gptType: gptEfi },
      { driveLetter: "C", accessPaths: ["/"], fileSystem: "NTFS", usedBytes: 21 * GiB },
    ],
  };
}

function hexLe(offset: number): string {
  const bytes = Buffer.alloc(8);
  bytes.writeBigUInt64LE(BigInt(offset));
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 4)}-${hex.slice(4)}`;
}

function usableEnd(size: number, style: number): number {
  const last = style === 2 ? size - 16896 : size;
  return Math.floor(last / MiB) * MiB;
}

function styleCode(spec: DiskSpec): number {
  const style = spec.partitionStyle ?? (spec.partitions?.length ? "GPT" : "RAW");
  return partitionStyles[style];
}

function buildDisk(spec: DiskSpec, number: number): DiskState {
  const busType = typeof spec.busType === "number" ? spec.busType : busTypes[spec.busType ?? "SAS"];
  const id = defaultIdentity(busType, number, spec.lun ?? number);
  const style = styleCode(spec);
  const reason = spec.offlineReason;
  const offline = spec.offline ?? reason !== undefined;
  return {
    number,
    size: spec.size ?? 10 * GiB,
    partitionStyle: style,
    busType,
    location: spec.location !== undefined ? spec.location : id.location,
    path: spec.path ?? id.path,
    friendlyName: spec.friendlyName ?? id.friendlyName,
    model: spec.model !== undefined ? spec.model : id.model,
    manufacturer: spec.manufacturer !== undefined ? spec.manufacturer : id.manufacturer,
    serialNumber: spec.serialNumber !== undefined ? spec.serialNumber : id.serialNumber,
    uniqueId: spec.uniqueId ?? id.uniqueId,
    uniqueIdFormat: spec.uniqueIdFormat ?? id.uniqueIdFormat,
    firmwareVersion: "1.0",
    logicalSectorSize: 512,
    physicalSectorSize: 4096,
    isOffline: offline,
    offlineReason: offline
      ? typeof reason === "number"
        ? reason
        : offlineReasons[reason ?? "Policy"]
      : null,
    isReadOnly: (spec.readOnly ?? false) || spec.writeProtected === true,
    ...(spec.writeProtected === true ? { writeProtected: true } : {}),
    isSystem: spec.isSystem ?? false,
    isBoot: spec.isBoot ?? false,
    isClustered: false,
    signature: style === 1 ? (spec.signature ?? guids.signature()) : null,
    guid: style === 2 ? (spec.guid ?? `{${guids.guid()}}`) : null,
    deviceIds: deviceIds(spec.page83 ?? id.page83),
    deviceIdError: spec.deviceIdError ?? null,
    provisioningType: spec.provisioningType ?? 2,
  };
}

function mountPath(path: string, root: string): string {
  const full = isAbsolute(path) ? path : join(root, path);
  return full.endsWith("/") ? full : `${full}/`;
}

function buildPartitions(
  disk: DiskState,
  specs: readonly PartitionSpec[],
  spec: DiskSpec,
  root: string,
  out: BuiltScenario,
): void {
  const gpt = disk.partitionStyle === 2;
  let cursor = MiB;
  if (gpt && spec.msr !== false) {
    out.state.partitions.push(partition(disk, 17408, 16759808, { gptType: gptReserved }, null, []));
    cursor = 16 * MiB;
  }
  const end = usableEnd(disk.size, disk.partitionStyle);
  specs.forEach((p) => {
    const size = p.size === undefined ? end - cursor : Math.ceil(p.size / MiB) * MiB;
    if (size <= 0 || cursor + size > end)
      throw new RangeError(`Partitions do not fit on disk ${disk.number}.`);
    const fileSystem = p.fileSystem ?? "NTFS";
    const derived = gpt
      ? guids.guid()
      : `${(disk.signature ?? 0).toString(16).padStart(8, "0")}-0000-0000-${hexLe(cursor)}`;
    // Disks with colliding signatures would derive the same MBR volume GUID.
    const taken = out.state.volumes.some((v) => v.guid === derived);
    const guid = p.volumeGuid ?? (taken ? guids.guid() : derived);
    const paths = (p.accessPaths ?? []).map((a) => (a === "/" ? "/" : mountPath(a, root)));
    for (const path of paths) if (path !== "/") out.mounts.push({ path, volume: guid });
    out.state.partitions.push(partition(disk, cursor, size, p, guid, paths, fileSystem));
    out.state.volumes.push(volume(guid, size, p, fileSystem));
    cursor += size;
  });
}

function partition(
  disk: DiskState,
  offset: number,
  size: number,
  p: PartitionSpec,
  guid: string | null,
  accessPaths: string[],
  fileSystem = "",
): PartitionState {
  const gpt = disk.partitionStyle === 2;
  return {
    diskNumber: disk.number,
    partitionNumber: 0,
    offset,
    size,
    gptType: gpt ? (p.gptType ?? gptBasic) : null,
    mbrType: gpt ? null : (p.mbrType ?? (fileSystem === "" ? 6 : fileSystem === "FAT32" ? 12 : 7)),
    driveLetter: p.driveLetter?.toUpperCase() ?? null,
    guid: gpt ? `{${guids.guid()}}` : null,
    accessPaths,
    volume: guid,
    isReadOnly: false,
    isOffline: false,
    isHidden: p.isHidden ?? false,
    isActive: false,
  };
}

function volume(guid: string, size: number, p: PartitionSpec, fileSystem: string): VolumeState {
  return {
    guid,
    fileSystem,
    label: p.label ?? "",
    allocationUnitSize: fileSystem === "" ? 0 : 4096,
    size,
    baseUsed: p.usedBytes ?? (fileSystem === "" ? 0 : 64 * MiB),
  };
}

/**
 * Turns a scenario into state.json content and the mounts to create under `root`. With
 * `spec.seed`, every GUID and MBR signature it makes is drawn from the seed, and so are the
 * volume GUIDs of partitions created later (`SimState.seed`).
 */
export function buildScenario(spec: ScenarioSpec, root: string): BuiltScenario {
  if (spec.seed === undefined) return build(spec, root);
  const outer = guids;
  guids = new GuidSource(spec.seed);
  try {
    const built = build(spec, root);
    const seed = guids.state();
    if (seed !== undefined) built.state.seed = seed;
    return built;
  } finally {
    guids = outer;
  }
}

function build(spec: ScenarioSpec, root: string): BuiltScenario {
  const out: BuiltScenario = {
    state: { version: 1, disks: [], partitions: [], volumes: [] },
    mounts: [],
  };
  const specs: DiskSpec[] = [];
  const system = spec.systemDisk ?? true;
  if (system !== false)
    specs.push(system === true ? systemDiskSpec() : { ...systemDiskSpec(), ...system });
  specs.push(...(spec.disks ?? []));
  const taken = new Set(specs.flatMap((d) => (d.number === undefined ? [] : [d.number])));
  let next = 0;
  for (const diskSpec of specs) {
    let number = diskSpec.number;
    if (number === undefined) {
      while (taken.has(next)) next++;
      number = next;
      taken.add(number);
    }
    if (out.state.disks.some((d) => d.number === number))
      throw new RangeError(`Disk number ${number} is used twice.`);
    const disk = buildDisk(diskSpec, number);
    out.state.disks.push(disk);
    if (disk.partitionStyle !== 0)
      buildPartitions(disk, diskSpec.partitions ?? [], diskSpec, root, out);
  }
  renumber(out.state);
  if (spec.smb !== undefined) out.state.smb = buildSmbState(spec.smb, root);
  if (spec.iscsi !== undefined) out.state.iscsi = buildIscsiState(spec.iscsi, root);
  if (spec.system !== undefined) out.state.system = buildSystemState(spec.system, root);
  if (spec.powershell !== undefined) out.state.powershell = spec.powershell;
  return out;
}

function renumber(state: SimState): void {
  for (const disk of state.disks) {
    const parts = state.partitions
      .filter((p) => p.diskNumber === disk.number)
      .sort((a, b) => a.offset - b.offset);
    parts.forEach((p, i) => (p.partitionNumber = i + 1));
  }
}
