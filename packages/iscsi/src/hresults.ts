import type { CsiProxyErrorCode } from "@csi-proxy/exec";

/** Why an iSCSI operation failed, in terms a CSI driver acts on. */
export type IscsiErrorReason =
  | "PORTAL_NOT_FOUND"
  | "TARGET_NOT_FOUND"
  | "PORTAL_UNREACHABLE"
  | "AUTHENTICATION_FAILED"
  | "AUTHORIZATION_FAILED"
  | "INVALID_CHAP_CREDENTIALS"
  | "SERVICE_NOT_RUNNING"
  | "ALREADY_CONNECTED"
  | "SESSION_NOT_FOUND"
  | "SESSION_BUSY"
  | "OTHER";

/** Code and reason of one iSCSI status (iscsierr.h ISDSC_* values, as `HRESULT 0xefff....` ids). */
export interface IscsiStatus {
  readonly name: string;
  readonly code: CsiProxyErrorCode;
  readonly reason: IscsiErrorReason;
}

function status(name: string, code: CsiProxyErrorCode, reason: IscsiErrorReason): IscsiStatus {
  return { name, code, reason };
}

/** The iSCSI initiator statuses callers branch on; others stay COMMAND_FAILED with reason OTHER. */
export const iscsiStatuses: ReadonlyMap<number, IscsiStatus> = new Map([
  [0xefff0003, status("ISDSC_CONNECTION_FAILED", "FAILED_PRECONDITION", "PORTAL_UNREACHABLE")],
  [
    0xefff0009,
    status("ISDSC_AUTHENTICATION_FAILURE", "PERMISSION_DENIED", "AUTHENTICATION_FAILED"),
  ],
  [0xefff000a, status("ISDSC_AUTHORIZATION_FAILURE", "PERMISSION_DENIED", "AUTHORIZATION_FAILED")],
  [0xefff001c, status("ISDSC_INVALID_SESSION_ID", "NOT_FOUND", "SESSION_NOT_FOUND")],
  [0xefff001f, status("ISDSC_SESSION_BUSY", "CONFLICT", "SESSION_BUSY")],
  [0xefff0022, status("ISDSC_LOGON_FAILED", "PERMISSION_DENIED", "AUTHENTICATION_FAILED")],
  [0xefff0024, status("ISDSC_TRANSPORT_ERROR", "FAILED_PRECONDITION", "PORTAL_UNREACHABLE")],
  [0xefff0029, status("ISDSC_TARGET_NOT_FOUND", "NOT_FOUND", "TARGET_NOT_FOUND")],
  [0xefff003e, status("ISDSC_SERVICE_NOT_RUNNING", "FAILED_PRECONDITION", "SERVICE_NOT_RUNNING")],
  [0xefff003f, status("ISDSC_TARGET_ALREADY_LOGGED_IN", "ALREADY_EXISTS", "ALREADY_CONNECTED")],
  [0xefff0040, status("ISDSC_DEVICE_BUSY_ON_SESSION", "CONFLICT", "SESSION_BUSY")],
  [0xefff0043, status("ISDSC_PORTAL_NOT_FOUND", "NOT_FOUND", "PORTAL_NOT_FOUND")],
  [0xafff0048, status("ISDSC_SHORT_CHAP_SECRET", "INVALID_ARGUMENT", "INVALID_CHAP_CREDENTIALS")],
  [0xefff004a, status("ISDSC_INVALID_CHAP_SECRET", "INVALID_ARGUMENT", "INVALID_CHAP_CREDENTIALS")],
  [
    0xefff004b,
    status("ISDSC_INVALID_TARGET_CHAP_SECRET", "INVALID_ARGUMENT", "INVALID_CHAP_CREDENTIALS"),
  ],
  [
    0xefff004c,
    status("ISDSC_INVALID_INITIATOR_CHAP_SECRET", "INVALID_ARGUMENT", "INVALID_CHAP_CREDENTIALS"),
  ],
  [
    0xefff004d,
    status("ISDSC_INVALID_CHAP_USER_NAME", "INVALID_ARGUMENT", "INVALID_CHAP_CREDENTIALS"),
  ],
  [0xefff005f, status("ISDSC_DNS_NAME_UNRESOLVED", "FAILED_PRECONDITION", "PORTAL_UNREACHABLE")],
]);

/** The iSCSI status of an `HRESULT 0xefff003f`, `ISDSC_TARGET_ALREADY_LOGGED_IN`. */
export const targetAlreadyLoggedIn = 0xefff003f;
/** `ISDSC_INVALID_SESSION_ID`: the session is gone (logged out meanwhile). */
export const invalidSessionId = 0xefff001c;
