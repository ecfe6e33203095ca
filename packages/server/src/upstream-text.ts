import { isCsiProxyError, type CsiProxyErrorCode } from "@csi-proxy/exec";

/** Upstream's text for a case, appended only to messages that say `when` (all, without it). */
interface Marker {
  readonly text: string;
  readonly when?: RegExp;
}

type Markers = Partial<Record<CsiProxyErrorCode, string | Marker>>;

// upstream v1.1/v1.2's getTarget for a folder that is no link or mount point (pkg/os/volume/api.go:
// `(Get-Item).Target` printed nothing and did not fail). aws-ebs-csi-driver reads a
// GetVolumeIDFromTargetPath error as "nothing mounted" only when it matches
// `(Get-Item -Path \S+).Target, output: , error: <nil>|because it does not exist`; a missing
// path already carries PowerShell's "Cannot find path '...' because it does not exist.", as
// upstream's did.
const notMountedFolder: Marker = {
  text: "error getting volume from mount. cmd: (Get-Item -Path $Env:mountpath).Target, output: , error: <nil>",
  when: / is not a mounted folder /,
};

// Texts of upstream's (Windows PowerShell era) errors that v1 clients look for in a status's
// details, per RPC and library code, for the cases where the library's error means the same
// thing (csi-proxy-v1-server.md §1.4: democratic-csi treats each as "already done").
const markers: Readonly<Record<string, Markers>> = {
  "filesystem.Rmdir": { NOT_FOUND: "The system cannot find the file specified." },
  "iscsi.DisconnectTarget": { NOT_FOUND: "ObjectNotFound" },
  "iscsi.GetTargetDisks": { NOT_FOUND: "ObjectNotFound" },
  "iscsi.RemoveTargetPortal": { NOT_FOUND: "ObjectNotFound" },
  "smb.RemoveSmbGlobalMapping": { NOT_FOUND: "No MSFT_SmbGlobalMapping objects found" },
  "volume.MountVolume": { CONFLICT: "The requested access path is already in use." },
  "volume.UnmountVolume": { NOT_FOUND: "The access path is not valid." },
  // Older versions' name for UnmountVolume, which upstream forwards (keeping its error text).
  "volume.DismountVolume": { NOT_FOUND: "The access path is not valid." },
  "volume.GetVolumeIDFromTargetPath": { NOT_FOUND: notMountedFolder },
  // Its name in volume v1beta1 and v1beta2.
  "volume.GetVolumeIDFromMount": { NOT_FOUND: notMountedFolder },
};

/**
 * The status details for an error: its message, followed by upstream's text for the same case
 * when the message does not already carry it.
 */
export function detailsOf(group: string, rpc: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!isCsiProxyError(error)) return message;
  const found = markers[`${group}.${rpc}`]?.[error.code];
  const marker = typeof found === "string" ? { text: found } : found;
  if (marker === undefined || message.includes(marker.text)) return message;
  return marker.when === undefined || marker.when.test(message)
    ? `${message} (${marker.text})`
    : message;
}
