/** Growth below this is skipped with success (upstream's `minimumResizeSize`, 100 MiB). */
export const minimumResizeBytes = 100n * 1024n * 1024n;

/** What {@link resizeDecision} concluded: resize to `target`, or skip. */
export interface ResizeDecision {
  resize: boolean;
  target: bigint;
}

/**
 * Upstream's rule: the target is `requested`, or `sizeMax` when `requested` is 0; resize only
 * when it is at least 100 MiB above the current partition size (shrinks are skipped).
 */
export function resizeDecision(
  current: bigint,
  requested: bigint,
  sizeMax: bigint | undefined,
): ResizeDecision {
  const target = requested === 0n ? (sizeMax ?? current) : requested;
  return { resize: target >= current + minimumResizeBytes, target };
}
