import { isCsiProxyError, type CsiProxyErrorCode } from "@csi-proxy/exec";

type Markers = Partial<Record<CsiProxyErrorCode, string>>;

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
};

/**
 * The status details for an error: its message, followed by upstream's text for the same case
 * when the message does not already carry it.
 */
export function detailsOf(group: string, rpc: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (!isCsiProxyError(error)) return message;
  const marker = markers[`${group}.${rpc}`]?.[error.code];
  return marker === undefined || message.includes(marker) ? message : `${message} (${marker})`;
}

/** The most characters of status details sent; grpc-message is a header, and peers cap headers. */
export const maxDetailsLength = 1024;
const keptTail = 160;

/**
 * `details` cut to {@link maxDetailsLength}, keeping its start and its end (where upstream's
 * marker text goes): a caller-sized value in an error message (a 300 KB path) would otherwise
 * make a grpc-message trailer larger than the client accepts (grpc-js: 8 KiB of metadata), and
 * the call would hang to its deadline instead of failing.
 */
export function boundDetails(details: string): string {
  if (details.length <= maxDetailsLength) return details;
  const cut = `… (${details.length - maxDetailsLength} characters left out) …`;
  const head = maxDetailsLength - keptTail - cut.length;
  return `${details.slice(0, head)}${cut}${details.slice(-keptTail)}`;
}
