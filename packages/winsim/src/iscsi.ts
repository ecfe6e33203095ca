// iSCSI: portals, targets behind them with CHAP settings and LUNs, sessions, and the initiator.
// The scenario spec a test writes, and the state the PowerShell side reads and updates.
import { isIP } from "node:net";
import type { DiskSpec } from "./spec.js";
import { buildLun } from "./iscsi-lun.js";
import {
  buildIscsiHostNames,
  resolveIscsiHostName,
  type IscsiHostNameState,
} from "./iscsi-names.js";
import type { DiskState, PartitionState, VolumeState } from "./types.js";

/** The iSCSI well-known port, used when a spec or a cmdlet gives none. */
export const iscsiDefaultPort = 3260;

/** A LUN: a disk like any other (RAW, offline by SAN policy unless said otherwise); its number is given at login. */
export type IscsiLunSpec = Omit<DiskSpec, "number" | "lun"> & {
  /** Default: its index in the target's list. */
  lun?: number;
};

/** A target an iSCSI server offers: its IQN, optional CHAP credentials, and its LUNs. */
export interface IscsiTargetSpec {
  /** The target's IQN as the target spells it (Get-IscsiTarget shows it so; sessions lower-case it). */
  iqn: string;
  /** One-way CHAP: the user name and secret the initiator must present. Absent: no CHAP. */
  chap?: {
    /** The CHAP user name the initiator must present. */
    username: string;
    /** The CHAP secret the initiator must present. */
    secret: string;
  };
  /** Mutual CHAP: the secret the target presents, which must equal the initiator's (Set-IscsiChapSecret). */
  mutualChapSecret?: string;
  /** The target's LUNs, which become disks while a session is logged in. */
  luns?: readonly IscsiLunSpec[];
}

/** A reachable iSCSI server: what a portal at this address and port discovers. */
export interface IscsiServerSpec {
  /** An IP address: what a connection to this server reports as its `TargetAddress`, as spelled here. */
  address: string;
  /** Host names that resolve to this address in the simulator's name table (no real DNS). */
  names?: readonly string[];
  /** Default 3260. */
  port?: number;
  /**
   * Redirect every login to this data address (an IP), as a target that answers a login with
   * "target moved temporarily" does (RFC 7143 §11.13.5, status class 1; used by Dell EqualLogic
   * group IPs and HPE StoreVirtual VIPs): the session's connection then reports this address as
   * its TargetAddress, which is neither the portal's text nor its DNS answer. Discovery still
   * goes to `address`.
   */
  redirectTo?: string;
  /** The targets the server offers. */
  targets?: readonly IscsiTargetSpec[];
}

/** What a scenario declares for this area. */
export interface IscsiSpec {
  /** Reachable servers; any other address is unreachable (0xefff0003). */
  servers?: readonly IscsiServerSpec[];
  /** Portals registered (and discovered) already. */
  portals?: readonly {
    /** The portal's address: an IP, `localhost`, or one of the servers' `names`. */
    address: string;
    /** The portal's port. Default 3260. */
    port?: number;
  }[];
  /** The initiator's node-wide mutual CHAP secret. */
  mutualChapSecret?: string;
  /** The MSiSCSI service; false makes every iSCSI cmdlet fail with 0xefff003e. Default true. */
  serviceRunning?: boolean;
  /** Default `iqn.1991-05.com.microsoft:winsim`. */
  initiatorNodeAddress?: string;
}

/** A LUN at rest: its disk (the number is a placeholder until login), partitions and volumes. */
export interface IscsiLunState {
  /** The LUN number. */
  lun: number;
  /** The LUN's disk; its `number` is a placeholder until a login gives it one. */
  disk: DiskState;
  /** The disk's partitions. */
  partitions: PartitionState[];
  /** The volumes of those partitions. */
  volumes: VolumeState[];
}

/** A target in state.json, with its LUNs at rest while no session exposes them. */
export interface IscsiTargetState {
  /** The target's IQN as the target spells it. */
  iqn: string;
  /** The one-way CHAP user name the initiator must present; null without CHAP. */
  chapUsername: string | null;
  /** The one-way CHAP secret the initiator must present; null without CHAP. */
  chapSecret: string | null;
  /** The secret the target presents in mutual CHAP; null for none. */
  mutualChapSecret: string | null;
  /** The target's LUNs at rest. */
  luns: IscsiLunState[];
}

/** An iSCSI server (array) in state.json: address, port, names and targets. */
export interface IscsiServerState {
  /** An IP address. */
  address: string;
  /** The TCP port it listens on. */
  port: number;
  /** The data address logins are redirected to; `null` when they stay at `address`. */
  redirectTo: string | null;
  /** The targets it offers. */
  targets: IscsiTargetState[];
}

/** A registered discovery portal (MSFT_iSCSITargetPortal) and the IQNs its last discovery found. */
export interface IscsiPortalState {
  /** The portal's address as it was registered: an IP or a host name. */
  address: string;
  /** The portal's TCP port. */
  port: number;
  /** The initiator instance given at registration; null when none was. */
  initiatorInstanceName: string | null;
  /** The initiator address given at registration; null when none was. */
  initiatorPortalAddress: string | null;
  /** Whether header digests were asked for at registration. */
  isHeaderDigest: boolean;
  /** Whether data digests were asked for at registration. */
  isDataDigest: boolean;
  /** The IQNs of the targets the last discovery through it found. */
  discovered: string[];
}

/** One connection of a session in state.json (initiator and target addresses and ports). */
export interface IscsiConnectionState {
  /** MSFT_iSCSIConnection.ConnectionIdentifier. */
  connectionIdentifier: string;
  /** The target's IP address the connection goes to (a redirected login's data address). */
  targetAddress: string;
  /** The target's TCP port. */
  targetPort: number;
  /** The initiator's address (`0.0.0.0` in the simulator). */
  initiatorAddress: string;
  /** The initiator's TCP port. */
  initiatorPort: number;
}

/** A logged-in session; `disks` are the LUNs' disk numbers in the Storage state while it lasts. */
export interface IscsiSessionState {
  /** MSFT_iSCSISession.SessionIdentifier. */
  sessionIdentifier: string;
  /** MSFT_iSCSISession.InitiatorSideIdentifier. */
  initiatorSideIdentifier: string;
  /** MSFT_iSCSISession.TargetSideIdentifier. */
  targetSideIdentifier: string;
  /** Lower-cased, as Get-IscsiSession reports it (PowerShell/PowerShell#17306). */
  targetNodeAddress: string;
  /** `NONE`, `ONEWAYCHAP` or `MUTUALCHAP`, as the login asked. */
  authenticationType: string;
  /** Whether the session is a persistent login, which `favorites` records. */
  isPersistent: boolean;
  /** MSFT_iSCSISession.IsMultipathEnabled, as the login (or Register-IscsiSession) set it. */
  isMultipathEnabled: boolean;
  /** The session's connections. */
  connections: IscsiConnectionState[];
  /** The LUNs' disks while the session lasts. */
  disks: {
    /** The LUN. */
    lun: number;
    /** The Windows disk number the LUN has for this session. */
    diskNumber: number;
  }[];
}

/** A persistent login ("favorite target"): Windows logs in again at boot until it is unregistered. */
export interface IscsiFavoriteState {
  /** The identifier of the session the persistent login was made from. */
  sessionIdentifier: string;
  /** The target's IQN, lower-cased as the session reports it. */
  targetNodeAddress: string;
  /** The address the session's connection went to. */
  targetAddress: string;
  /** The port the session's connection went to. */
  targetPort: number;
  /** `NONE`, `ONEWAYCHAP` or `MUTUALCHAP`, as the login asked. */
  authenticationType: string;
  /** The CHAP user name given with the login (or registration); null when none was. */
  chapUsername: string | null;
  /** Whether multipath was enabled for the session. */
  isMultipathEnabled: boolean;
}

/** The initiator side in state.json: node address, mutual CHAP secret, service state. */
export interface IscsiInitiatorState {
  /** The initiator's IQN. */
  nodeAddress: string;
  /** The node-wide mutual CHAP secret (Set-IscsiChapSecret); null for none. */
  mutualChapSecret: string | null;
  /** Whether the MSiSCSI service runs; false makes every iSCSI cmdlet fail. */
  serviceRunning: boolean;
}

/** This area's part of state.json. */
export interface IscsiState {
  /** The format's version. */
  readonly version: 1;
  /** The initiator side. */
  initiator: IscsiInitiatorState;
  /** The name table: `localhost` and the servers' names (edit it to make a name stop resolving). */
  hosts: IscsiHostNameState[];
  /** The reachable iSCSI servers. */
  servers: IscsiServerState[];
  /** The registered discovery portals. */
  portals: IscsiPortalState[];
  /** The logged-in sessions. */
  sessions: IscsiSessionState[];
  /** The persistent logins. */
  favorites: IscsiFavoriteState[];
  /** The last session serial, so identifiers stay unique across processes. */
  lastSession: number;
}

/** Turns the spec into initial state; `root` is the simulator's sandbox folder. */
export function buildIscsiState(spec: IscsiSpec, root: string): IscsiState {
  let serial = 0;
  for (const server of spec.servers ?? []) {
    if (isIP(server.address) === 0) {
      throw new RangeError(
        `Server ${server.address} must be declared by IP address; give host names in names.`,
      );
    }
    if (server.redirectTo !== undefined && isIP(server.redirectTo) === 0) {
      throw new RangeError(`Server ${server.address}: redirectTo must be an IP address.`);
    }
  }
  const hosts = buildIscsiHostNames(spec.servers ?? []);
  const servers = (spec.servers ?? []).map((server) => ({
    address: server.address,
    port: server.port ?? iscsiDefaultPort,
    redirectTo: server.redirectTo ?? null,
    targets: (server.targets ?? []).map((target) => ({
      iqn: target.iqn,
      chapUsername: target.chap?.username ?? null,
      chapSecret: target.chap?.secret ?? null,
      mutualChapSecret: target.mutualChapSecret ?? null,
      luns: (target.luns ?? []).map((lun, index) => buildLun(lun, index, ++serial, root)),
    })),
  }));
  const portals = (spec.portals ?? []).map((p) => {
    const port = p.port ?? iscsiDefaultPort;
    const addresses = resolveIscsiHostName(hosts, p.address).map(ipKey);
    const server = servers.find((s) => addresses.includes(ipKey(s.address)) && s.port === port);
    if (server === undefined)
      throw new RangeError(`Portal ${p.address}:${port} has no server in the scenario.`);
    return {
      address: p.address,
      port,
      initiatorInstanceName: null,
      initiatorPortalAddress: null,
      isHeaderDigest: false,
      isDataDigest: false,
      discovered: server.targets.map((t) => t.iqn),
    };
  });
  return {
    version: 1,
    initiator: {
      nodeAddress: spec.initiatorNodeAddress ?? "iqn.1991-05.com.microsoft:winsim",
      mutualChapSecret: spec.mutualChapSecret ?? null,
      serviceRunning: spec.serviceRunning ?? true,
    },
    hosts,
    servers,
    portals,
    sessions: [],
    favorites: [],
    lastSession: 0,
  };
}

// One spelling per IP, so `2001:DB8:0::5` and `2001:db8::5` name the same server (URL's IPv6 serialiser).
function ipKey(address: string): string {
  return isIP(address) === 6 ? new URL(`http://[${address}]/`).hostname : address.toLowerCase();
}
