/** The API groups of upstream csi-proxy's v1 server. */
export type ApiGroup = "disk" | "filesystem" | "iscsi" | "smb" | "system" | "volume";

/** One group-version the server serves, on its own endpoint, as upstream's v1 server does. */
export interface ServedApi {
  /** The API group. */
  readonly group: ApiGroup;
  /** The API version, which is also the proto package (`v1`, `v1alpha2`, ...). */
  readonly version: string;
  /** The gRPC service name inside the package (`Disk`, `Filesystem`, ...). */
  readonly service: string;
  /** `csi-proxy-<group>-<version>`: upstream's pipe name, and this server's socket name. */
  readonly endpoint: string;
  /** The proto file, relative to the package's `proto/` folder. */
  readonly protoFile: string;
}

const services: Record<ApiGroup, string> = {
  disk: "Disk",
  filesystem: "Filesystem",
  iscsi: "Iscsi",
  smb: "Smb",
  system: "System",
  volume: "Volume",
};

function served(group: ApiGroup, version: string): ServedApi {
  return {
    group,
    version,
    service: services[group],
    endpoint: `csi-proxy-${group}-${version}`,
    protoFile: `${group}/${version}/api.proto`,
  };
}

/**
 * Every group-version this server serves: upstream's v1 server's 23 (csi-proxy-v1-server.md
 * §1.1). The older versions adapt their request and response shapes to the newest version's
 * handlers, as upstream's forwarding does.
 */
export const servedApis: readonly ServedApi[] = [
  served("disk", "v1alpha1"),
  served("disk", "v1beta1"),
  served("disk", "v1beta2"),
  served("disk", "v1beta3"),
  served("disk", "v1"),
  served("filesystem", "v1alpha1"),
  served("filesystem", "v1beta1"),
  served("filesystem", "v1beta2"),
  served("filesystem", "v1"),
  served("filesystem", "v2alpha1"),
  served("iscsi", "v1alpha1"),
  served("iscsi", "v1alpha2"),
  served("smb", "v1alpha1"),
  served("smb", "v1beta1"),
  served("smb", "v1beta2"),
  served("smb", "v1"),
  served("system", "v1alpha1"),
  served("volume", "v1alpha1"),
  served("volume", "v1beta1"),
  served("volume", "v1beta2"),
  served("volume", "v1beta3"),
  served("volume", "v1"),
  served("volume", "v2alpha1"),
];

/** The endpoint set served at upstream's names, and the only one without `--endpoint-set`. */
export const defaultEndpointSet = "default";

// It becomes part of a pipe name and a folder name, so it stays short and plain.
const endpointSetPattern = /^[a-z](?:[a-z0-9-]{0,38}[a-z0-9])?$/;

/** Whether `name` can name an endpoint set (`--endpoint-set`, a policy's `endpointSet`). */
export function isEndpointSetName(name: string): boolean {
  return endpointSetPattern.test(name);
}

/**
 * The pipe (and socket) name of `api` in endpoint set `set`: upstream's
 * `csi-proxy-<group>-<version>` for the default set, `csi-proxy-<set>-<group>-<version>`
 * otherwise. Upstream's names have one hyphen after `csi-proxy-`, a named set's at least two, so
 * no set's name is another's.
 */
export function endpointName(set: string, api: ServedApi): string {
  return set === defaultEndpointSet ? api.endpoint : `csi-proxy-${set}-${api.group}-${api.version}`;
}

/** The key of an endpoint in the ready line: `disk-v1`, or `<set>/disk-v1` for a named set. */
export function endpointKey(set: string, api: ServedApi): string {
  const key = `${api.group}-${api.version}`;
  return set === defaultEndpointSet ? key : `${set}/${key}`;
}
