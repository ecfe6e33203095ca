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

/** The grants of the rules that match one caller, merged. */
export interface Grants {
  /** The names of the rules merged here. */
  readonly rules: readonly string[];
  /** `group.Method` patterns. */
  readonly methods: readonly RegExp[];
  readonly paths: readonly PathPattern[];
  readonly smbRemotePaths: Grant<string>;
  readonly iscsiPortals: Grant<PortalKey>;
  readonly iscsiTargets: readonly RegExp[];
  /** The IQNs granted by name (no wildcard): their disks can be found without a hint. */
  readonly exactIqns: readonly string[];
  readonly disksAny: boolean;
  readonly disksOfIscsiTargets: boolean;
  readonly page83: readonly RegExp[];
  readonly volumes: Grant<string>;
  readonly services: Grant<string>;
}

/** The folders a CSI driver's node plugin works in, under the kubelet folder. */
export function driverPaths(kubeletPath: string, driver: string): string[] {
  return [
    `${kubeletPath}\\plugins\\${driver}`,
    `${kubeletPath}\\plugins\\kubernetes.io\\csi\\${driver}`,
    `${kubeletPath}\\pods\\*\\volumes\\kubernetes.io~csi`,
  ];
}

function union<T>(
  parts: readonly (readonly string[] | undefined)[],
  parse: (text: string) => T,
): Grant<T> {
  const all = parts.flatMap((p) => p ?? []);
  return all.includes("*") ? "any" : all.map(parse);
}

/** A rule's grants, checked and parsed (throws INVALID_ARGUMENT naming what is wrong). */
export function compileGrants(rules: readonly RuleSpec[], kubeletPath: string): Grants {
  const disks = rules.map((r) => r.disks);
  return {
    rules: rules.map((r) => r.name),
    methods: rules.flatMap((r) => r.methods).map(glob),
    paths: rules
      .flatMap((r) => [
        ...(r.paths ?? []),
        ...(r.driver === undefined ? [] : driverPaths(kubeletPath, r.driver)),
      ])
      .map(pathPattern),
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
