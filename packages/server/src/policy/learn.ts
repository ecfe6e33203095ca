import { isCsiProxyError } from "@csi-proxy/exec";
import type { Message } from "../handlers/context.js";
import type { OwnershipIndex } from "./ownership.js";
import type { Resource } from "./resources.js";

// Calls that can take a disk away, and so free its number for the next disk to arrive.
const movesDisks = new Set(["iscsi.DisconnectTarget", "iscsi.RemoveTargetPortal"]);

/** Whether the method, once allowed, can take a disk away (the index stops trusting older facts). */
export function movesDiskNumbers(method: string): boolean {
  return movesDisks.has(method);
}

/**
 * Whether an allowed call's failure shows the node changed under the server: a disk, volume or
 * target it had just decided on is not there.
 */
export function showsChange(method: string, error: unknown): boolean {
  const group = method.slice(0, method.indexOf("."));
  return (
    ["disk", "volume", "iscsi"].includes(group) &&
    isCsiProxyError(error) &&
    error.code === "NOT_FOUND"
  );
}

const asNumber = (value: unknown): number | undefined => {
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
};

/**
 * What an allowed call's answer (before it is narrowed for the caller) says of whose disks and
 * volumes are whose, recorded as read at `at`, when the call started: no host call of its own.
 * ListDiskIDs teaches nothing: its answer does not say which disk is the node's own, which an
 * identity grant needs (the ids listing reads it).
 */
export function learnFromAnswer(
  index: OwnershipIndex,
  method: string,
  resources: readonly Resource[],
  response: Message,
  at: number,
): void {
  const disk = resources.find((r) => r.kind === "disk");
  const volume = resources.find((r) => r.kind === "volume");
  switch (method) {
    case "iscsi.GetTargetDisks": {
      const target = resources.find((r) => r.kind === "iscsiTarget");
      const numbers = Array.isArray(response.diskIDs) ? response.diskIDs.map(asNumber) : [];
      if (target !== undefined && numbers.every((n) => n !== undefined)) {
        index.learnTargetDisks(target.iqn, numbers, at);
      }
      return;
    }
    case "volume.ListVolumesOnDisk": {
      const ids = Array.isArray(response.volume_ids) ? response.volume_ids : [];
      if (disk === undefined) return;
      for (const id of ids)
        if (typeof id === "string") index.learnVolumeDisk(id, disk.diskNumber, at);
      return;
    }
    case "volume.GetDiskNumberFromVolumeID":
    case "volume.GetVolumeDiskNumber": {
      const n = asNumber(response.disk_number ?? response.diskNumber);
      if (volume !== undefined && n !== undefined) index.learnVolumeDisk(volume.volumeId, n, at);
      return;
    }
  }
}
