import { CsiProxyError } from "@csi-proxy/exec";
import type { MountOutcome, PathLookup, UnmountOutcome } from "./host-types.js";
import type { MountVolumeResponse, UnmountVolumeResponse } from "./types.js";

/** Upstream's bound on link chains and walking up (v1 getTarget, findClosestVolume). */
export const maxPathSteps = 256;

function conflict(message: string): CsiProxyError {
  return new CsiProxyError(message, { code: "CONFLICT" });
}

function notFound(message: string): CsiProxyError {
  return new CsiProxyError(message, { code: "NOT_FOUND" });
}

/** Same volume already there → idempotent success; anything else in the folder → CONFLICT. */
export function mountResponse(outcome: MountOutcome, targetPath: string): MountVolumeResponse {
  switch (outcome.status) {
    case "mounted":
      return { alreadyMounted: false };
    case "alreadyMounted":
      return { alreadyMounted: true };
    case "occupied":
      throw conflict(`${targetPath} is already a link or mount point (to ${outcome.target}).`);
    case "notEmpty":
      throw conflict(
        `${targetPath} is not empty; a volume can only be mounted on an empty folder.`,
      );
    case "notDirectory":
      throw conflict(`${targetPath} is not a folder.`);
  }
}

/** Nothing mounted → idempotent success; another volume's mount → CONFLICT (left alone). */
export function unmountResponse(
  outcome: UnmountOutcome,
  targetPath: string,
): UnmountVolumeResponse {
  if (outcome.status === "otherVolume")
    throw conflict(`${targetPath} is a mount of another volume (${outcome.target}).`);
  return { wasMounted: outcome.status === "unmounted" };
}

/** The volume id of a path lookup, or NOT_FOUND / FAILED_PRECONDITION (a link loop). */
export function lookupVolumeId(targetPath: string, lookup: PathLookup): string {
  switch (lookup.status) {
    case "found":
      return lookup.volumeId;
    case "notMounted":
      throw notFound(
        `${targetPath} is not a mounted folder (${lookup.path} is no link or mount point).`,
      );
    case "noVolume":
      throw notFound(`No volume holds ${targetPath} (reached ${lookup.path}).`);
    case "tooDeep":
      throw new CsiProxyError(
        `Gave up on ${targetPath} after ${maxPathSteps} steps (maximum recursion reached; a link loop?).`,
        { code: "FAILED_PRECONDITION" },
      );
  }
}

/** The one disk of a volume: none → NOT_FOUND, several (a spanned volume) → FAILED_PRECONDITION. */
export function singleDiskNumber(volumeId: string, numbers: readonly number[]): number {
  const distinct = [...new Set(numbers)];
  const [diskNumber] = distinct;
  if (diskNumber === undefined) throw notFound(`Volume ${volumeId} has no partition on any disk.`);
  if (distinct.length > 1)
    throw new CsiProxyError(`Volume ${volumeId} spans disks ${distinct.join(", ")}.`, {
      code: "FAILED_PRECONDITION",
    });
  return diskNumber;
}
