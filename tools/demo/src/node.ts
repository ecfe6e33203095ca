import { Disk } from "@csi-proxy/disk";
import type { PowerShell } from "@csi-proxy/exec";
import { Filesystem, type FilesystemHost } from "@csi-proxy/filesystem";
import { Iscsi } from "@csi-proxy/iscsi";
import { Smb, type SmbLinkHost } from "@csi-proxy/smb";
import { System } from "@csi-proxy/system";
import { Volume } from "@csi-proxy/volume";

/** The six API groups, as a driver's node plugin would hold them, sharing one PowerShell. */
export interface NodeGroups {
  readonly system: System;
  readonly iscsi: Iscsi;
  readonly disk: Disk;
  readonly volume: Volume;
  readonly filesystem: Filesystem;
  readonly smb: Smb;
}

/** Options that differ between the simulated host (POSIX paths) and a real Windows node. */
export interface NodeOptions {
  readonly pathStyle: "windows" | "posix";
  readonly kubeletRoot: string;
  readonly smbLinks?: SmbLinkHost;
  /** What Node reports of the host's folders; Node's `fs` by default. */
  readonly fsHost?: FilesystemHost;
}

export function createNodeGroups(shell: PowerShell, options: NodeOptions): NodeGroups {
  const { pathStyle } = options;
  return {
    system: new System({ shell }),
    iscsi: new Iscsi({ shell }),
    disk: new Disk({ shell }),
    volume: new Volume({ shell, pathStyle }),
    filesystem: new Filesystem({
      pathStyle,
      allowedRoots: [options.kubeletRoot],
      ...(options.fsHost === undefined ? {} : { host: options.fsHost }),
    }),
    smb: new Smb({
      shell,
      pathStyle,
      ...(options.smbLinks === undefined ? {} : { links: options.smbLinks }),
    }),
  };
}
