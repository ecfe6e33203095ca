import { Disk } from "@csi-proxy/disk";
import { createPowerShell, type PowerShell } from "@csi-proxy/exec";
import { Iscsi, type HostNameResolver } from "@csi-proxy/iscsi";
import { Smb, type PathStyle, type SmbLinkHost } from "@csi-proxy/smb";
import { System } from "@csi-proxy/system";
import { Volume } from "@csi-proxy/volume";

/** The API groups the commands read (and, after confirmation, change) the node through. */
export interface CliGroups {
  /** The Disk group. */
  readonly disk: Disk;
  /** The Volume group. */
  readonly volume: Volume;
  /** The Smb group. */
  readonly smb: Smb;
  /** The iSCSI group. */
  readonly iscsi: Iscsi;
  /** The System group. */
  readonly system: System;
  /** Ends whatever the factory started (PowerShell processes, a simulated host). */
  close(): Promise<void>;
}

/** What the program asks of a {@link GroupsFactory}. */
export interface GroupsRequest {
  /** `--simulate`: the simulated demo node instead of this machine. */
  readonly simulate: boolean;
  /**
   * `--state-dir`: the folder the simulated node is kept in between runs (created and staged on
   * first use); without it each run has a fresh node in a temporary folder.
   */
  readonly stateDir?: string | undefined;
  /** The run's Ctrl-C: preparing the simulated node stops at it too. */
  readonly signal?: AbortSignal | undefined;
}

/**
 * Creates the groups for one run. The program calls it only when a command needs the node (so
 * `--help` starts nothing) and closes what it returns; tests inject their own.
 */
export type GroupsFactory = (request: GroupsRequest) => Promise<CliGroups>;

/** What differs between a real node and the simulator besides the shell. */
export interface NodeWiring {
  readonly pathStyle: PathStyle;
  readonly smbLinks?: SmbLinkHost | undefined;
  readonly resolveHostName?: HostNameResolver | undefined;
}

/** The groups sharing one PowerShell (which the caller closes). */
export function groupsOn(shell: PowerShell, wiring: NodeWiring): Omit<CliGroups, "close"> {
  const { pathStyle } = wiring;
  return {
    disk: new Disk({ shell }),
    volume: new Volume({ shell, pathStyle }),
    smb: new Smb({ shell, pathStyle, ...(wiring.smbLinks ? { links: wiring.smbLinks } : {}) }),
    iscsi: new Iscsi({
      shell,
      ...(wiring.resolveHostName ? { resolveHostName: wiring.resolveHostName } : {}),
    }),
    system: new System({ shell }),
  };
}

/** This machine's groups: Windows PowerShell, Windows paths, the system's name resolver. */
function windowsGroups(): CliGroups {
  const shell = createPowerShell();
  return { ...groupsOn(shell, { pathStyle: "windows" }), close: () => shell.close() };
}

/**
 * The default factory. `--simulate` loads `@csi-proxy/winsim` only then, so an operator's run on
 * Windows never imports the simulator.
 */
export const createGroups: GroupsFactory = async (request) => {
  if (!request.simulate) return windowsGroups();
  const { simulatedNodeGroups } = await import("./simulate.js");
  return simulatedNodeGroups(request);
};
