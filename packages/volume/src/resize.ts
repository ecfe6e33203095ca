/** Growth below this is skipped with success (upstream's `minimumResizeSize`, 100 MiB). */
export const minimumResizeBytes = 100n * 1024n * 1024n;

/** What {@link resizeDecision} concluded: resize to `target`, or skip. */
export interface ResizeDecision {
  resize: boolean;
  target: bigint;
}

/**
 * Upstream's rule, with explicit sizes clamped: the target is `sizeMax` when `requested` is 0,
 * else `requested` but never above `sizeMax` (on GPT the largest partition is smaller than the
 * disk: MSR and 1 MiB alignment, so "grow to the disk size" would fail with StorageWMI 4097).
 * Resize only when the target is at least 100 MiB above the current partition size (shrinks are
 * skipped). Without a `sizeMax` an explicit request is passed on as is.
 */
export function resizeDecision(
  current: bigint,
  requested: bigint,
  sizeMax: bigint | undefined,
): ResizeDecision {
  let target = requested === 0n ? (sizeMax ?? current) : requested;
  if (sizeMax !== undefined && target > sizeMax) target = sizeMax;
  return { resize: target >= current + minimumResizeBytes, target };
}
