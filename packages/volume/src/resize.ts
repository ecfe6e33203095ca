import type { PartitionLayout } from "./host-types.js";

/** Growth below this is skipped with success (upstream's `minimumResizeSize`, 100 MiB). */
export const minimumResizeBytes = 100n * 1024n * 1024n;

const mib = 1024n * 1024n;
// The backup GPT at the end of the disk: one header sector plus the 128 × 128-byte entry array
// (UEFI spec §5.3.2/§5.3.3), 16896 bytes on 512-byte sectors, 20480 on 4 KiB ones.
const gptEntryArrayBytes = 16384n;
const gptPartitionStyle = 2;

/** What {@link resizeDecision} concluded: resize to `target`, skip, or the size is not on the disk. */
export interface ResizeDecision {
  resize: boolean;
  target: bigint;
  /** The request exceeds the disk Windows sees: the disk has not grown (yet) as far as it knows. */
  unreachable: boolean;
}

/**
 * The largest size the partition can reach, from its layout alone, for when
 * `Get-PartitionSupportedSize` fails (defragsvc off: aws-ebs-csi-driver#2877). The partition may
 * run to the next partition or to the disk's usable end (GPT: before the backup GPT), cut to whole
 * MiB as Windows aligns partitions. Never more than Windows' own SizeMax for a growing partition;
 * if it were, Resize-Partition would fail with 4097, not succeed wrongly.
 */
export function layoutSizeMax(layout: PartitionLayout): bigint {
  const sector = BigInt(layout.logicalSectorSize);
  const tail =
    layout.partitionStyle === gptPartitionStyle && sector > 0n
      ? sector + ((gptEntryArrayBytes + sector - 1n) / sector) * sector
      : 0n;
  let end = layout.diskSize > tail ? ((layout.diskSize - tail) / mib) * mib : 0n;
  if (layout.nextOffset !== undefined && layout.nextOffset < end) end = layout.nextOffset;
  return end > layout.offset ? ((end - layout.offset) / mib) * mib : 0n;
}

/**
 * Upstream's rule, with explicit sizes clamped: the target is `sizeMax` when `requested` is 0,
 * else `requested` but never above `sizeMax` (on GPT the largest partition is smaller than the
 * disk: MSR and 1 MiB alignment, so "grow to the disk size" would fail with StorageWMI 4097).
 * Resize only when the target is at least 100 MiB above the current partition size (shrinks are
 * skipped). Without a `sizeMax` an explicit request is passed on as is. An explicit request above
 * `diskSize` (the disk as Windows sees it after the cache refresh) is `unreachable`: clamping it
 * would report a grow that never happened as done.
 */
export function resizeDecision(
  current: bigint,
  requested: bigint,
  sizeMax: bigint | undefined,
  diskSize?: bigint,
): ResizeDecision {
  if (requested > 0n && diskSize !== undefined && requested > diskSize)
    return { resize: false, target: requested, unreachable: true };
  let target = requested === 0n ? (sizeMax ?? current) : requested;
  if (sizeMax !== undefined && target > sizeMax) target = sizeMax;
  return { resize: target >= current + minimumResizeBytes, target, unreachable: false };
}
