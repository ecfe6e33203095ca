/**
 * A caller a rule is for: token-less callers (on every endpoint set, or on one), or a Kubernetes
 * service account.
 */
export type CallerSpec =
  | {
      /** A caller without a token, on any endpoint set: anyone who can open one of the sockets. */
      readonly local: true;
    }
  | {
      /**
       * A caller without a token that came in on this endpoint set's endpoints (`--endpoint-set`):
       * whoever the deployment mounted that set's sockets or pipes into.
       */
      readonly endpointSet: string;
    }
  | {
      /** A caller presenting this service account's verified token. */
      readonly serviceAccount: ServiceAccountSpec;
      /** Counts only for calls on this endpoint set; any set when absent. */
      readonly endpointSet?: string;
    };

/** A Kubernetes service account, by namespace and name (`*`: any in the namespace). */
export interface ServiceAccountSpec {
  /** Its namespace. */
  readonly namespace: string;
  /** Its name, or `*`. */
  readonly name: string;
}

/** Which disks a rule grants, besides `*`. */
export interface DiskGrantSpec {
  /** The disks of the iSCSI targets the rule grants (found on the host, read-only). */
  readonly ofIscsiTargets?: boolean;
  /** Page 83 id patterns (`*` any run of characters; case-insensitive). */
  readonly page83?: readonly string[];
  /** Serial number patterns, as ListDiskIDs gives them (`*` any run; case-insensitive). */
  readonly serialNumbers?: readonly string[];
}

/** One rule of a policy file: grants, each of one kind, to some callers. */
export interface RuleSpec {
  /** Named in audit records and denials. */
  readonly name: string;
  /** Who the rule is for. */
  readonly callers: readonly CallerSpec[];
  /** RPCs as `group.Method` (any version), `group.*` or `*`. */
  readonly methods: readonly string[];
  /** A CSI driver name: its plugin folders and the pod volume folders kubelet made for it. */
  readonly driver?: string;
  /** Windows folders every path field must lie in; a `*` segment is any one name. */
  readonly paths?: readonly string[];
  /** UNC prefixes SMB remote paths must lie in, or `*`. */
  readonly smbRemotePaths?: readonly string[];
  /** Target portals (`address`, `address:port`, `[v6]:port`), or `*`. */
  readonly iscsiPortals?: readonly string[];
  /** Target IQN patterns (`*` any run of characters). */
  readonly iscsiTargets?: readonly string[];
  /** Disks: `*`, or those of granted targets and those whose page 83 id matches. */
  readonly disks?: "*" | DiskGrantSpec;
  /** Volume ids granted besides the volumes of granted disks, or `*`. */
  readonly volumes?: readonly string[];
  /** Service names GetService, StartService and StopService may act on, or `*`. */
  readonly services?: readonly string[];
}

/** A policy file (`schema/policy.schema.json`). */
export interface PolicySpec {
  /** The format's version: 1. */
  readonly version: 1;
  /** The rules; a caller gets the union of those that match it. */
  readonly rules: readonly RuleSpec[];
}
