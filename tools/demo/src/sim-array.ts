import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createNodeSmbLinkHost, type SmbLinkHost } from "@csi-proxy/smb";
import { smbShareDir, translateUncLinks, type Simulator } from "@csi-proxy/winsim";
import type { ArrayControls } from "./lifecycle.js";

/** The storage array's and file server's side of the demo, played by the simulator. */
export function simulatedArray(sim: Simulator): ArrayControls {
  const share = smbShareDir(sim, "files.example.com", "projects");
  // The file server already holds the folder the SMB volume was provisioned as.
  mkdirSync(join(share, "team-a"), { recursive: true });
  return {
    growLun(diskNumber, bytes) {
      sim.update((state) => {
        const disk = state.disks.find((d) => d.number === diskNumber);
        if (disk === undefined) throw new Error(`no disk ${diskNumber} on the simulated host`);
        disk.size = bytes;
      });
    },
    shareFolder: () => share,
  };
}

/** SMB links on the simulated host point at the share's backing folder (Linux has no UNC paths). */
export function simulatedShareLinks(sim: Simulator): SmbLinkHost {
  return translateUncLinks(sim, createNodeSmbLinkHost());
}
