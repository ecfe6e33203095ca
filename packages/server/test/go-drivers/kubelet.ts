// The paths kubelet hands a Windows CSI driver and what it makes on the host before each call
// (go-drivers.md, "Paths the drivers receive and send"): the staging path without a drive
// (`\var\lib\kubelet\plugins\kubernetes.io\csi\<driver>\<sha256>\globalmount`), made with
// `vol_data.json` beside it before NodeStageVolume; the pod path with a lower-case `c:`, whose
// folder (with `vol_data.json`, not `mount`) is made before NodePublishVolume.
import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { kubeletPublishes } from "../harness.js";

/** A volume's paths as kubelet sends them, for one driver and one pod. */
export interface KubeletPaths {
  /** NodeStageVolume's `staging_target_path`, without a drive. */
  readonly staging: string;
  /** NodePublishVolume's `target_path`, with `c:`. */
  readonly target: string;
}

/** k8s.io/mount-utils NormalizeWindowsPath: `/` → `\`, and a leading `\` gets `c:`. */
export function normalizeWindowsPath(path: string): string {
  const backslashed = path.replaceAll("/", "\\");
  return backslashed.startsWith("\\") ? `c:${backslashed}` : backslashed;
}

/** The host folder of a Windows path on drive C: of the simulated node (with or without `c:`). */
export function onHost(root: string, path: string): string {
  const rest = path.replace(/^[a-z]:/i, "");
  return join(root, ...rest.split("\\").filter((s) => s !== ""));
}

/** Makes what kubelet makes for `pv` of `driver` before NodeStageVolume and NodePublishVolume. */
export function kubeletPrepares(root: string, driver: string, pv: string): KubeletPaths {
  const sha = createHash("sha256").update(pv).digest("hex");
  const parent = `\\var\\lib\\kubelet\\plugins\\kubernetes.io\\csi\\${driver}\\${sha}`;
  mkdirSync(onHost(root, `${parent}\\globalmount`), { recursive: true });
  writeFileSync(
    onHost(root, `${parent}\\vol_data.json`),
    JSON.stringify({ driverName: driver, volumeHandle: `${pv}-handle` }),
  );
  const podFolder = kubeletPublishes(root, `pod-${pv}`, pv, driver);
  return { staging: `${parent}\\globalmount`, target: `c${podFolder.slice(1)}\\mount` };
}
