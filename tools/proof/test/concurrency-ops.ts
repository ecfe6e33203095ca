import { type Disk } from "@csi-proxy/disk";
import { type Iscsi } from "@csi-proxy/iscsi";
import { type Smb } from "@csi-proxy/smb";
import { type Volume } from "@csi-proxy/volume";
import type { CallLogEntry, ScenarioSpec, SimState } from "@csi-proxy/winsim";

const gib = 1024 ** 3;
export const volumeDisks = [1, 2, 3, 4, 5, 6];
/** Disks only brought online and offline: kept apart from the volumes, whose calls they would fail. */
export const stateDisks = [7, 8];
export const shares = ["s0", "s1", "s2", "s3"];
export const iqns = ["t0", "t1", "t2"].map((t) => `iqn.2003-01.org.example.array:${t}`);
export const portal = { targetAddress: "10.0.0.5" };

/** Six volumes, two disks to online and offline, four shares, three targets. */
export const concurrencyScenario: ScenarioSpec = {
  disks: [
    ...volumeDisks.map((number) => ({
      number,
      size: gib,
      partitionStyle: "GPT" as const,
      partitions: [{ fileSystem: "NTFS" as const }],
    })),
    ...stateDisks.map((number) => ({ number, size: gib, partitionStyle: "GPT" as const })),
  ],
  smb: { servers: [{ name: "fs1", accounts: { "CONTOSO\\alice": "pw-alice-1" }, shares }] },
  iscsi: {
    servers: [{ address: portal.targetAddress, targets: iqns.map((iqn) => ({ iqn, luns: [] })) }],
    portals: [{ address: portal.targetAddress }],
  },
};

/** The groups an operation runs on. */
export interface Groups {
  readonly disk: Disk;
  readonly volume: Volume;
  readonly smb: Smb;
  readonly iscsi: Iscsi;
}

/** One operation: its resource and how to run it. */
export interface Operation {
  readonly resource: string;
  readonly label: string;
  run(groups: Groups): Promise<unknown>;
}

// A small seeded generator (mulberry32), so the serial and concurrent runs get the same list.
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `count` mixed operations over every resource, reproducible from `seed`. */
export function operations(
  count: number,
  seed: number,
  volumeIds: ReadonlyMap<number, string>,
  mountDir: (disk: number, slot: string) => string,
): Operation[] {
  const next = random(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const ops: Operation[] = [];
  for (let i = 0; i < count; i++) {
    const kind = next();
    if (kind < 0.6) {
      const disk = pick(volumeDisks);
      const volumeId = volumeIds.get(disk) ?? "";
      const targetPath = mountDir(disk, pick(["a", "b"]));
      const action = pick(["mount", "unmount", "format", "stats"]);
      const label = pick(["x", "y", "z"]);
      ops.push({
        resource: `disk:${disk}`,
        label: `${action} disk ${disk}`,
        run: ({ volume }) =>
          action === "mount"
            ? volume.mountVolume({ volumeId, targetPath })
            : action === "unmount"
              ? volume.unmountVolume({ volumeId, targetPath })
              : action === "format"
                ? volume.formatVolume({ volumeId, label })
                : volume.isVolumeFormatted({ volumeId }),
      });
    } else if (kind < 0.7) {
      const diskNumber = pick(stateDisks);
      const action = pick(["online", "offline", "state"]);
      ops.push({
        resource: `disk:${diskNumber}`,
        label: `${action} disk ${diskNumber}`,
        run: ({ disk }) =>
          action === "state"
            ? disk.getDiskState({ diskNumber })
            : disk.setDiskState({ diskNumber, isOnline: action === "online" }),
      });
    } else if (kind < 0.85) {
      const share = pick(shares);
      const remotePath = `\\\\fs1\\${share}`;
      const map = next() < 0.5;
      ops.push({
        resource: `smb:${remotePath}`,
        label: `${map ? "map" : "unmap"} ${share}`,
        run: ({ smb }) =>
          map
            ? smb.newSmbGlobalMapping({
                remotePath,
                username: "CONTOSO\\alice",
                password: "pw-alice-1",
              })
            : smb.removeSmbGlobalMapping({ remotePath }),
      });
    } else {
      const iqn = pick(iqns);
      const connect = next() < 0.5;
      ops.push({
        resource: `iscsi:${iqn}`,
        label: `${connect ? "connect" : "disconnect"} ${iqn}`,
        run: ({ iscsi }) =>
          connect
            ? iscsi.connectTarget({ targetPortal: portal, iqn, authType: "NONE" })
            : iscsi.disconnectTarget({ targetPortal: portal, iqn }),
      });
    }
  }
  return ops;
}

/** The resource a logged cmdlet call acted on, or undefined for listings. */
export function resourceOf(
  entry: CallLogEntry,
  diskOfVolume: ReadonlyMap<string, number>,
): string | undefined {
  const first = (value: unknown): unknown => (Array.isArray(value) ? value[0] : value);
  const uniqueId = first(entry.target.UniqueId ?? entry.parameters.UniqueId);
  if (typeof uniqueId === "string") {
    const disk = diskOfVolume.get(uniqueId.toLowerCase());
    if (disk !== undefined) return `disk:${disk}`;
  }
  const disk = first(
    entry.target.DiskNumber ?? entry.parameters.DiskNumber ?? entry.parameters.Number,
  );
  if (typeof disk === "number") return `disk:${disk}`;
  const remote = first(entry.parameters.RemotePath);
  if (typeof remote === "string") return `smb:${remote.replace(/\\+$/, "").toLowerCase()}`;
  const node = first(entry.parameters.NodeAddress);
  if (typeof node === "string") return `iscsi:${node.toLowerCase()}`;
  return undefined;
}

/** Pairs of calls on one resource, from different processes, whose [start, end] overlap. */
export function overlaps(
  entries: readonly CallLogEntry[],
  diskOfVolume: ReadonlyMap<string, number>,
): string[] {
  const byResource = new Map<string, CallLogEntry[]>();
  for (const entry of entries) {
    const key = resourceOf(entry, diskOfVolume);
    if (key !== undefined) byResource.set(key, [...(byResource.get(key) ?? []), entry]);
  }
  const found: string[] = [];
  for (const [key, list] of byResource) {
    for (const a of list)
      for (const b of list)
        if (a.seq < b.seq && a.pid !== b.pid && a.start < b.end && b.start < a.end)
          found.push(`${key}: ${a.command}#${a.seq} and ${b.command}#${b.seq}`);
  }
  return found;
}

/** The state that operations change, with paths made relative to the host's root. */
export function comparable(state: SimState, root: string): unknown {
  return {
    disks: stateDisks.map((number) => {
      const disk = state.disks.find((d) => d.number === number);
      return { number, isOffline: disk?.isOffline, offlineReason: disk?.offlineReason };
    }),
    volumes: volumeDisks.map((disk) => {
      const partition = state.partitions.find((p) => p.diskNumber === disk && p.volume !== null);
      const volume = state.volumes.find((v) => v.guid === partition?.volume);
      return {
        disk,
        label: volume?.label,
        fileSystem: volume?.fileSystem,
        accessPaths: (partition?.accessPaths ?? []).map((p) => p.replace(root, "<root>")).sort(),
      };
    }),
    mappings: (state.smb?.mappings ?? [])
      .map((m) => `${m.remotePath} ${m.user} ${m.status}`)
      .sort(),
    sessions: (state.iscsi?.sessions ?? []).map((s) => s.targetNodeAddress).sort(),
  };
}
