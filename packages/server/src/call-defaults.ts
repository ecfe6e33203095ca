import type { CallOptions } from "@csi-proxy/exec";

/**
 * The deadline of a call whose client sent none (upstream's clients often send none): two
 * minutes, what kubelet gives a CSI driver's call before it gives up on it (`csiTimeout` in
 * kubernetes pkg/volume/csi/csi_plugin.go), so no call holds a PowerShell process longer than
 * the driver waits for it.
 */
export const defaultCallDeadlineMs = 120_000;

/**
 * A call's options as the server runs it: the client's deadline, or the default one, and the
 * endpoint set as its fairness key (when given), so each set's calls take their own turn in the
 * PowerShell pool and one set never holds every process.
 */
export function serverCallOptions(
  options: CallOptions,
  fairnessKey: string | undefined,
  now: number = Date.now(),
): CallOptions {
  const none =
    options.timeoutMs === undefined &&
    (options.deadline === undefined || options.deadline === Number.POSITIVE_INFINITY);
  return {
    ...options,
    ...(none ? { deadline: now + defaultCallDeadlineMs } : {}),
    ...(fairnessKey === undefined ? {} : { fairnessKey }),
  };
}
