import { windowsPath } from "../paths.js";
import { legacyDiskNumber, optionalText, text, uint, type Message } from "../handlers/context.js";
import { defaultIscsiPort } from "@csi-proxy/iscsi";
import type { PortalKey } from "./match.js";

/** Something a request names that a grant must cover. */
export type Resource =
  | { readonly kind: "path"; readonly field: string; readonly path: string }
  | { readonly kind: "smbRemotePath"; readonly remotePath: string }
  | { readonly kind: "iscsiPortal"; readonly portal: PortalKey }
  | { readonly kind: "iscsiTarget"; readonly portal: PortalKey; readonly iqn: string }
  | { readonly kind: "disk"; readonly diskNumber: number }
  | { readonly kind: "volume"; readonly volumeId: string }
  | { readonly kind: "service"; readonly name: string };

type Extract = (request: Message) => Resource[];

const path =
  (field: string, optional = false): Extract =>
  (request) => {
    const value = optional ? optionalText(request, field) : text(request, field);
    return value === undefined ? [] : [{ kind: "path", field, path: windowsPath(value) }];
  };

function portalOf(request: Message): PortalKey | undefined {
  const portal = request.target_portal as Message | null | undefined;
  if (portal === null || portal === undefined) return undefined;
  const port = uint(portal, "target_port");
  // Port 0 is the default port, as the iSCSI group reads it.
  return {
    address: text(portal, "target_address").toLowerCase(),
    port: port === 0 ? defaultIscsiPort : port,
  };
}

const portal: Extract = (request) => {
  const key = portalOf(request);
  return key === undefined ? [] : [{ kind: "iscsiPortal", portal: key }];
};

const target: Extract = (request) => {
  const key = portalOf(request);
  return key === undefined
    ? []
    : [
        { kind: "iscsiPortal", portal: key },
        { kind: "iscsiTarget", portal: key, iqn: text(request, "iqn") },
      ];
};

const disk: Extract = (request) => [{ kind: "disk", diskNumber: uint(request, "disk_number") }];
// An older version's disk number, sent as decimal text (read as its handler reads it).
const diskText =
  (field: string): Extract =>
  (request) => [{ kind: "disk", diskNumber: legacyDiskNumber(request, field) }];

// A method whose field was renamed between versions: the request (decoded with every field of its
// version's message) carries the field of the version it was sent to.
const byVersion =
  (newer: string, newest: Extract, older: Extract): Extract =>
  (request) =>
    newer in request ? newest(request) : older(request);
const volume: Extract = (request) => [{ kind: "volume", volumeId: text(request, "volume_id") }];
const smb: Extract = (request) => [
  { kind: "smbRemotePath", remotePath: text(request, "remote_path") },
];
const service: Extract = (request) => [{ kind: "service", name: text(request, "name") }];

// What each RPC names, for every version: a method renamed in a newer version is listed under
// each of its names, and a field renamed in place is read by the version the request came in.
const table: Readonly<Record<string, readonly Extract[]>> = {
  "filesystem.PathExists": [path("path")],
  "filesystem.Mkdir": [path("path")],
  "filesystem.Rmdir": [path("path")],
  "filesystem.RmdirContents": [path("path")],
  "filesystem.IsSymlink": [path("path")],
  "filesystem.IsMountPoint": [path("path")], // v1alpha1, v1beta1: IsSymlink
  "filesystem.CreateSymlink": [path("source_path"), path("target_path")],
  "filesystem.LinkPath": [path("source_path"), path("target_path")], // v1alpha1, v1beta1: CreateSymlink
  // v1alpha1 to v1beta2: disk_id (decimal text), every partition.
  "volume.ListVolumesOnDisk": [byVersion("disk_number", disk, diskText("disk_id"))],
  // v1alpha1 to v1beta2: the mount folder is `path`.
  "volume.MountVolume": [volume, byVersion("target_path", path("target_path"), path("path"))],
  "volume.UnmountVolume": [volume, path("target_path")],
  "volume.DismountVolume": [volume, path("path")], // v1alpha1 to v1beta2: UnmountVolume
  "volume.IsVolumeFormatted": [volume],
  "volume.FormatVolume": [volume],
  "volume.ResizeVolume": [volume],
  "volume.GetVolumeStats": [volume],
  "volume.VolumeStats": [volume], // v1beta1, v1beta2: GetVolumeStats
  "volume.GetDiskNumberFromVolumeID": [volume],
  "volume.GetVolumeDiskNumber": [volume], // v1beta1, v1beta2: GetDiskNumberFromVolumeID
  "volume.WriteVolumeCache": [volume],
  "volume.GetVolumeIDFromTargetPath": [path("target_path")],
  "volume.GetVolumeIDFromMount": [path("mount")], // v1beta1, v1beta2: GetVolumeIDFromTargetPath
  "volume.GetClosestVolumeIDFromTargetPath": [path("target_path")],
  // v1alpha1 to v1beta2: diskID (decimal text).
  "disk.PartitionDisk": [byVersion("disk_number", disk, diskText("diskID"))],
  "disk.GetDiskStats": [disk],
  "disk.DiskStats": [diskText("diskID")], // v1beta1, v1beta2: GetDiskStats
  "disk.SetDiskState": [disk],
  "disk.SetAttachState": [diskText("diskID")], // v1beta2: SetDiskState
  "disk.GetDiskState": [disk],
  "disk.GetAttachState": [diskText("diskID")], // v1beta2: GetDiskState
  "smb.NewSmbGlobalMapping": [smb, path("local_path", true)],
  "smb.RemoveSmbGlobalMapping": [smb],
  "iscsi.AddTargetPortal": [portal],
  "iscsi.DiscoverTargetPortal": [portal],
  "iscsi.RemoveTargetPortal": [portal],
  "iscsi.ConnectTarget": [target],
  "iscsi.DisconnectTarget": [target],
  "iscsi.GetTargetDisks": [target],
  // Which services exist and run is the node's; a caller sees those it is granted.
  "system.GetService": [service],
  "system.StartService": [service],
  "system.StopService": [service],
};

/** The resources a request names (checked by the path rules as it goes: INVALID_ARGUMENT). */
export function resourcesOf(method: string, request: Message): Resource[] {
  return (table[method] ?? []).flatMap((extract) => extract(request));
}

/** How a denial and the audit log name a resource. */
export function describeResource(resource: Resource): string {
  switch (resource.kind) {
    case "path":
      return `path ${resource.path} (${resource.field})`;
    case "smbRemotePath":
      return `SMB remote path ${resource.remotePath}`;
    case "iscsiPortal":
      return `iSCSI portal ${resource.portal.address}:${resource.portal.port}`;
    case "iscsiTarget":
      return `iSCSI target ${resource.iqn}`;
    case "disk":
      return `disk ${resource.diskNumber}`;
    case "volume":
      return `volume ${resource.volumeId}`;
    case "service":
      return `service ${resource.name}`;
  }
}
