import { readFile } from "node:fs/promises";
import type { PathMapping } from "../paths.js";
import type { PodVolumeOwner } from "./authorize.js";

// kubelet's csi_mounter (SetUpAt) writes this file into each pod volume folder before it calls
// NodePublishVolume, and removes it after NodeUnpublishVolume; the driver is `driverName`.
const volumeDataFile = "vol_data.json";

// kubelet writes a handful of short fields: anything much larger is not its file.
const maxBytes = 64 * 1024;

/** Reads which CSI driver kubelet recorded for a pod volume folder; undefined when none. */
export function podVolumeOwner(paths: PathMapping): PodVolumeOwner {
  return async (folder) => {
    let text: string;
    try {
      const data = await readFile(paths.toHost(`${folder}\\${volumeDataFile}`));
      if (data.length > maxBytes) return undefined;
      text = data.toString("utf8");
    } catch {
      return undefined; // no such file (not a published volume), or unreadable: nobody's
    }
    try {
      const driver = (JSON.parse(text) as { driverName?: unknown }).driverName;
      return typeof driver === "string" ? driver : undefined;
    } catch {
      return undefined;
    }
  };
}
