import { CsiProxyError } from "@csi-proxy/exec";
import type { HandlerContext, Message, ServiceHandlers } from "./context.js";
import { flag, uint } from "./context.js";

function mapOf<V>(entries: ReadonlyMap<number, V>, convert: (value: V) => Message): Message {
  const out: Record<string, Message> = {};
  for (const [key, value] of entries) out[String(key)] = convert(value);
  return out;
}

/** disk v1 (`v1.Disk`). */
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
