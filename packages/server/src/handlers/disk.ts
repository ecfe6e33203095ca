import { CsiProxyError, type CallOptions } from "@csi-proxy/exec";
import type { HandlerContext, Message, ServiceHandlers } from "./context.js";
import { flag, legacyDiskNumber, rpcOf, text, uint } from "./context.js";

function mapOf<V>(entries: ReadonlyMap<number, V>, convert: (value: V) => Message): Message {
  const out: Record<string, Message> = {};
  for (const [key, value] of entries) out[String(key)] = convert(value);
  return out;
}

/** disk v1 (`v1.Disk`); v1beta3 has the same surface. */
export function diskV1({ groups: { disk } }: HandlerContext): ServiceHandlers {
  return {
    async ListDiskLocations(_request, options) {
      const { diskLocations } = await disk.listDiskLocations({}, options);
      return {
        disk_locations: mapOf(diskLocations, (l) => ({
          Adapter: l.adapter,
          Bus: l.bus,
          Target: l.target,
          LUNID: l.lunId,
        })),
      };
    },
    async PartitionDisk(request, options) {
      await disk.partitionDisk({ diskNumber: uint(request, "disk_number") }, options);
      return {};
    },
    async Rescan(_request, options) {
      await disk.rescan({}, options);
      return {};
    },
    async ListDiskIDs(_request, options) {
      const { diskIds, errors } = await disk.listDiskIds({}, options);
      // As upstream: one disk whose ids cannot be read fails the call, rather than a map that
      // silently lacks it (a client would take a missing disk for a detached one).
      const [first] = errors;
      if (first !== undefined) {
        throw new CsiProxyError(
          `Reading the ids of ${errors.length} disk(s) failed, first ${first.path}: ${first.message}`,
          { code: "COMMAND_FAILED" },
        );
      }
      return {
        diskIDs: mapOf(diskIds, (ids) => ({
          page83: ids.page83,
          serial_number: ids.serialNumber,
        })),
      };
    },
    async GetDiskStats(request, options) {
      const { totalBytes } = await disk.getDiskStats(
        { diskNumber: uint(request, "disk_number") },
        options,
      );
      return { total_bytes: String(totalBytes) };
    },
    async SetDiskState(request, options) {
      await disk.setDiskState(
        { diskNumber: uint(request, "disk_number"), isOnline: flag(request, "is_online") },
        options,
      );
      return {};
    },
    async GetDiskState(request, options) {
      const { isOnline } = await disk.getDiskState(
        { diskNumber: uint(request, "disk_number") },
        options,
      );
      return { is_online: isOnline };
    },
  };
}

/** disk v1beta3 (`v1beta3.Disk`): the same surface as v1. */
export const diskV1beta3 = diskV1;

// The v1 handlers, with an older version's disk number (decimal text) in `disk_number`.
function v1WithDiskId(v1: ServiceHandlers, method: string) {
  const rpc = rpcOf(v1, method);
  return (request: Message, field: string, options: CallOptions, extra: Message = {}) =>
    rpc({ ...extra, disk_number: legacyDiskNumber(request, field) }, options);
}

// What disk v1alpha1 to v1beta2 share: string-keyed locations, PartitionDisk(diskID), Rescan.
function diskLegacyBase(v1: ServiceHandlers): ServiceHandlers {
  const partition = v1WithDiskId(v1, "PartitionDisk");
  return {
    // v1's map, keyed by the disk number; on the wire a string key of the same decimal text.
    ListDiskLocations: rpcOf(v1, "ListDiskLocations"),
    async PartitionDisk(request, options) {
      return partition(request, "diskID", options);
    },
    Rescan: rpcOf(v1, "Rescan"),
  };
}

/**
 * Upstream's answer for a page 83 id no disk has; also the answer for another caller's disk, so
 * that whether it exists is not said.
 */
export function diskNameNotFound(name: string): CsiProxyError {
  return new CsiProxyError(`could not find disk with Page83 ID ${name}`, { code: "NOT_FOUND" });
}

/** disk v1alpha1 (`v1alpha1.Disk`): ListDiskLocations, PartitionDisk, Rescan, GetDiskNumberByName. */
export function diskV1alpha1(context: HandlerContext): ServiceHandlers {
  const v1 = diskV1(context);
  return {
    ...diskLegacyBase(v1),
    // Upstream looks for the disk whose page 83 identifier is disk_name.
    async GetDiskNumberByName(request, options) {
      const name = text(request, "disk_name");
      const { diskIDs } = (await rpcOf(v1, "ListDiskIDs")({}, options)) as {
        diskIDs: Record<string, { page83: string }>;
      };
      const found = Object.entries(diskIDs).find(([, ids]) => ids.page83 === name);
      if (found === undefined) throw diskNameNotFound(name);
      return { disk_number: found[0] };
    },
  };
}

/** disk v1beta1 (`v1beta1.Disk`): no GetDiskNumberByName; ListDiskIDs and DiskStats by diskID. */
export function diskV1beta1(context: HandlerContext): ServiceHandlers {
  const v1 = diskV1(context);
  const stats = v1WithDiskId(v1, "GetDiskStats");
  return {
    ...diskLegacyBase(v1),
    async ListDiskIDs(request, options) {
      const { diskIDs } = (await rpcOf(v1, "ListDiskIDs")(request, options)) as {
        diskIDs: Record<string, { page83: string; serial_number: string }>;
      };
      const out: Record<string, Message> = {};
      for (const [key, ids] of Object.entries(diskIDs)) {
        out[key] = { identifiers: { page83: ids.page83, serialNumber: ids.serial_number } };
      }
      return { diskIDs: out };
    },
    async DiskStats(request, options) {
      const { total_bytes } = await stats(request, "diskID", options);
      return { diskSize: total_bytes };
    },
  };
}

/** disk v1beta2 (`v1beta2.Disk`): v1beta1 plus Set/GetAttachState, v1's Set/GetDiskState by diskID. */
export function diskV1beta2(context: HandlerContext): ServiceHandlers {
  const v1 = diskV1(context);
  const setState = v1WithDiskId(v1, "SetDiskState");
  const getState = v1WithDiskId(v1, "GetDiskState");
  return {
    ...diskV1beta1(context),
    async SetAttachState(request, options) {
      await setState(request, "diskID", options, { is_online: flag(request, "isOnline") });
      return {};
    },
    async GetAttachState(request, options) {
      const { is_online } = await getState(request, "diskID", options);
      return { isOnline: is_online };
    },
  };
}
