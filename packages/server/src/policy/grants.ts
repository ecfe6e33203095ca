import type { RuleSpec } from "./spec.js";
import {
  glob,
  pathPattern,
  portalKey,
  smbPrefix,
  type PathPattern,
  type PortalKey,
} from "./match.js";

/** One kind of grant: anything, or a list of what is granted. */
export type Grant<T> = "any" | readonly T[];

/** A folder grant: a pattern, and for the pods' CSI volumes, whose volumes it covers. */
export interface PathGrant {
  readonly pattern: PathPattern;
  /**
   * A CSI driver name: the pattern covers a pod volume's folder only when kubelet's
   * `vol_data.json` in it names this driver (every driver's pod volumes share one parent).
   */
  readonly podVolumesOf?: string;
}

/**
 * Methods that change the whole node for every caller: granted only by their own name, never
 * by `*` or `group.*`.
 */
export const nodeWideMethods: ReadonlySet<string> = new Set(["iscsi.SetMutualChapSecret"]);

/** The grants of the rules that match one caller, merged. */
export interface Grants {
  /** The names of the rules merged here. */
  readonly rules: readonly string[];
  /** `group.Method` patterns. */
  readonly methods: readonly RegExp[];
  /** Node-wide methods granted by name. */
  readonly nodeWide: ReadonlySet<string>;
  readonly paths: readonly PathGrant[];
  readonly smbRemotePaths: Grant<string>;
  /**
   * The SMB prefixes of the policy's other rules: a share's mapping serves every path in it, so
   * it is removed only when none of them lies in the share.
   */
  readonly othersSmbRemotePaths: Grant<string>;
  readonly iscsiPortals: Grant<PortalKey>;
  readonly iscsiTargets: readonly RegExp[];
  /** The IQNs granted by name (no wildcard): their disks can be found without a hint. */
  readonly exactIqns: readonly string[];
  readonly disksAny: boolean;
  readonly disksOfIscsiTargets: boolean;
  readonly page83: readonly RegExp[];
  /** Serial number patterns of granted disks. */
  readonly serialNumbers: readonly RegExp[];
  readonly volumes: Grant<string>;
  readonly services: Grant<string>;
}

/**
 * The folders a CSI driver's node plugin works in, under the kubelet folder: its plugin folders,
 * and each pod volume folder of its own (`pods\<uid>\volumes\kubernetes.io~csi\<pv>`).
 */
export function driverPaths(kubeletPath: string, driver: string): PathGrant[] {
  return [
    { pattern: pathPattern(`${kubeletPath}\\plugins\\${driver}`) },
    { pattern: pathPattern(`${kubeletPath}\\plugins\\kubernetes.io\\csi\\${driver}`) },
    {
      pattern: pathPattern(`${kubeletPath}\\pods\\*\\volumes\\kubernetes.io~csi\\*`),
      podVolumesOf: driver,
    },
  ];
}

function union<T>(
  parts: readonly (readonly string[] | undefined)[],
  parse: (text: string) => T,
): Grant<T> {
  const all = parts.flatMap((p) => p ?? []);
  return all.includes("*") ? "any" : all.map(parse);
}

/**
 * A rule's grants, checked and parsed (throws INVALID_ARGUMENT naming what is wrong). `others`:
 * the policy's rules that do not apply to this caller.
 */
export function compileGrants(
  rules: readonly RuleSpec[],
  kubeletPath: string,
  others: readonly RuleSpec[] = [],
): Grants {
  const disks = rules.map((r) => r.disks);
  return {
    othersSmbRemotePaths: union(
      others.map((r) => r.smbRemotePaths),
      smbPrefix,
    ),
    rules: rules.map((r) => r.name),
    methods: rules.flatMap((r) => r.methods).map(glob),
    nodeWide: new Set(rules.flatMap((r) => r.methods).filter((m) => nodeWideMethods.has(m))),
    paths: rules.flatMap((r) => [
      ...(r.paths ?? []).map((path) => ({ pattern: pathPattern(path) })),
      ...(r.driver === undefined ? [] : driverPaths(kubeletPath, r.driver)),
    ]),
    smbRemotePaths: union(
      rules.map((r) => r.smbRemotePaths),
      smbPrefix,
    ),
    iscsiPortals: union(
      rules.map((r) => r.iscsiPortals),
      portalKey,
    ),
    iscsiTargets: rules.flatMap((r) => r.iscsiTargets ?? []).map(glob),
    exactIqns: rules.flatMap((r) => r.iscsiTargets ?? []).filter((iqn) => !iqn.includes("*")),
    disksAny: disks.includes("*"),
    disksOfIscsiTargets: disks.some((d) => typeof d === "object" && d.ofIscsiTargets === true),
    page83: disks.flatMap((d) => (typeof d === "object" ? (d.page83 ?? []) : [])).map(glob),
    serialNumbers: disks
      .flatMap((d) => (typeof d === "object" ? (d.serialNumbers ?? []) : []))
      .map(glob),
    volumes: union(
      rules.map((r) => r.volumes),
      (id) => id.toLowerCase(),
    ),
    services: union(
      rules.map((r) => r.services),
      (name) => name.toLowerCase(),
    ),
  };
}
