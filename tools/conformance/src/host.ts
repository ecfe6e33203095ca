import type { PowerShellOptions } from "@csi-proxy/exec";
import type { FilesystemOptions } from "@csi-proxy/filesystem";
import type { IscsiOptions } from "@csi-proxy/iscsi";
import type { SmbOptions } from "@csi-proxy/smb";

/** Which machine the suite runs against. */
export type HostKind = "simulator" | "windows";

/** An iSCSI target the host serves, reachable through {@link IscsiResources.portal}. */
export interface IscsiTargetResource {
  /** The target's IQN as the target reports it. */
  readonly iqn: string;
  /** The one-way CHAP user name and secret the target demands. */
  readonly chapUsername: string;
  readonly chapSecret: string;
  /** Bytes of its one LUN. */
  readonly lunBytes: number;
}

/** The iSCSI side: one portal, a one-way CHAP target and a mutual CHAP target. */
export interface IscsiResources {
  /** The portal as a driver would register it: a host name (`localhost`), not an IP. */
  readonly portal: { readonly targetAddress: string; readonly targetPort: number };
  readonly oneWay: IscsiTargetResource;
  /** Also demands that the initiator's mutual secret equals {@link mutualSecret}. */
  readonly mutual: IscsiTargetResource;
  readonly mutualSecret: string;
}

/** A share on an SMB server, with an account allowed on it. */
export interface SmbResources {
  /** `\\server\share`. */
  readonly remotePath: string;
  /** A folder that exists below the share, e.g. `\\server\share\pvc-1`. */
  readonly subPath: string;
  /** `MACHINE\user`. */
  readonly username: string;
  readonly password: string;
  /** Whether the server supports SMB encryption (`requirePrivacy`). */
  readonly encryption: boolean;
}

/**
 * What the suite needs from a machine, and how to reach it. Two implementations: the simulator's
 * scenario builder (`simulator-host.ts`) and the Windows PowerShell setup (`windows-host.ts`).
 */
export interface ConformanceHost {
  readonly kind: HostKind;
  /** Options for `createPowerShell` (executable, simulator module). */
  readonly shellOptions: PowerShellOptions;
  /** Path rules the groups use: `windows` on Windows, `posix` on the simulator. */
  readonly pathStyle: "windows" | "posix";
  /** A folder the suite may fill and empty; everything it creates lives below it. */
  readonly scratchRoot: string;
  /** Filesystem group options besides `pathStyle` (the simulator's Windows-like host). */
  readonly filesystemOptions: FilesystemOptions;
  /** Smb group options besides `shell` and `pathStyle` (UNC link translation on the simulator). */
  readonly smbOptions: Omit<SmbOptions, "shell" | "pathStyle">;
  /** Iscsi group options besides `shell` (host-name resolution on the simulator). */
  readonly iscsiOptions: Omit<IscsiOptions, "shell">;
  /** Disk numbers of blank (RAW, online) disks of {@link blankDiskBytes} each. */
  readonly blankDisks: readonly number[];
  readonly blankDiskBytes: number;
  readonly smb: SmbResources;
  readonly iscsi: IscsiResources;
  /** A running service the suite may stop and start again. */
  readonly stoppableService: string;
  /** A disk bigger than 2^53 bytes, where the host can have one (the simulator only). */
  readonly hugeDisk: { readonly diskNumber: number; readonly bytes: bigint } | undefined;
  /**
   * Grows the storage behind a disk to `bytes` (the array grows the LUN) and returns the disk's
   * number afterwards (a re-attached virtual disk may get a new one).
   */
  growDisk(diskNumber: number, bytes: number): Promise<number>;
  /** Where a file of a volume can be read whatever is mounted where (`\\?\Volume{…}\` on Windows). */
  volumeFilePath(volumeId: string, relative: string): string;
  /** The simulator's cmdlet-level call log, where the host keeps one. */
  cmdletCalls(): readonly { readonly command: string }[] | undefined;
  /** Removes everything setup made; safe to run twice and after a failed setup. */
  teardown(): Promise<void>;
}
