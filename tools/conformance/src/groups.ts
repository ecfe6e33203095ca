import { Disk } from "@csi-proxy/disk";
import { createPowerShell, type PowerShell } from "@csi-proxy/exec";
import { Filesystem } from "@csi-proxy/filesystem";
import { Iscsi } from "@csi-proxy/iscsi";
import { Smb } from "@csi-proxy/smb";
import { System } from "@csi-proxy/system";
import { Volume } from "@csi-proxy/volume";
import type { ConformanceHost } from "./host.js";

/** The six API groups as a driver's node plugin holds them, sharing one PowerShell. */
export interface Groups {
  readonly shell: PowerShell;
  readonly disk: Disk;
  readonly volume: Volume;
  readonly filesystem: Filesystem;
  readonly smb: Smb;
  readonly iscsi: Iscsi;
  readonly system: System;
}

/** Builds the groups the same way on both hosts; only the host's options differ. */
export function createGroups(host: ConformanceHost): Groups {
  const shell = createPowerShell(host.shellOptions);
  const { pathStyle } = host;
  return {
    shell,
    disk: new Disk({ shell }),
    volume: new Volume({ shell, pathStyle }),
    filesystem: new Filesystem({
      ...host.filesystemOptions,
      pathStyle,
      allowedRoots: [host.scratchRoot],
    }),
    smb: new Smb({ ...host.smbOptions, shell, pathStyle }),
    iscsi: new Iscsi({ ...host.iscsiOptions, shell }),
    system: new System({ shell }),
  };
}
