import {
  CsiProxyError,
  isCsiProxyError,
  parseErrorId,
  type CsiProxyErrorCode,
  type PowerShellErrorRecord,
} from "@csi-proxy/exec";

// Win32 codes New-SmbGlobalMapping reports as `Windows System Error <n>` (or as HRESULT 0x8007xxxx).
const win32Codes: ReadonlyMap<number, { code: CsiProxyErrorCode; why: string }> = new Map([
  [
    1219,
    {
      code: "CONFLICT",
      why: "the server is already connected with another user name (Windows error 1219); use the same credentials for every share of this server, or remove its other mappings first",
    },
  ],
  [85, { code: "CONFLICT", why: "the local device name is already in use (Windows error 85)" }],
  [5, { code: "PERMISSION_DENIED", why: "access is denied (Windows error 5)" }],
  [65, { code: "PERMISSION_DENIED", why: "network access is denied (Windows error 65)" }],
  [86, { code: "PERMISSION_DENIED", why: "the password is not correct (Windows error 86)" }],
  [
    1326,
    {
      code: "PERMISSION_DENIED",
      why: "the user name or password is incorrect (Windows error 1326)",
    },
  ],
  [53, { code: "NOT_FOUND", why: "the network path was not found (Windows error 53)" }],
  [67, { code: "NOT_FOUND", why: "the network name (share) cannot be found (Windows error 67)" }],
]);

function recordOf(error: unknown): PowerShellErrorRecord | undefined {
  if (!isCsiProxyError(error)) return undefined;
  const record = (error as { record?: unknown }).record;
  return typeof record === "object" && record !== null
    ? (record as PowerShellErrorRecord)
    : undefined;
}

/** The Win32 code an error id carries: `Windows System Error 5` or `HRESULT 0x80070005`. */
function win32Code(fullyQualifiedErrorId: string): number | undefined {
  const id = parseErrorId(fullyQualifiedErrorId);
  if (id.kind === "WindowsSystemError") return id.code;
  // FACILITY_WIN32 HRESULTs wrap a Win32 code in their low 16 bits.
  if (id.kind === "HRESULT" && id.code !== undefined && id.code >>> 16 === 0x8007)
    return id.code & 0xffff;
  return undefined;
}

/**
 * Maps a host failure to the code callers branch on, by the parsed error id (never by the
 * localised message), whichever command reported it (`New-SmbGlobalMapping`, or
 * `Invoke-CimMethod` for a mapping without credentials): 1219 and 85 → `CONFLICT`; 5, 65, 86,
 * 1326 → `PERMISSION_DENIED`; 53, 67 → `NOT_FOUND`. Anything else is returned unchanged.
 */
export function toSmbError(error: unknown, subject: string): unknown {
  const record = recordOf(error);
  if (record === undefined) return error;
  const known = win32Codes.get(win32Code(record.fullyQualifiedErrorId) ?? -1);
  if (known !== undefined)
    return new CsiProxyError(`${subject}: ${known.why}.`, { code: known.code, cause: error });
  return error;
}

const fsCodes: Readonly<Record<string, CsiProxyErrorCode>> = {
  ENOENT: "NOT_FOUND",
  ENOTDIR: "CONFLICT",
  EEXIST: "CONFLICT",
  ENOTEMPTY: "CONFLICT",
  EACCES: "PERMISSION_DENIED",
  EPERM: "PERMISSION_DENIED",
};

/** Wraps a failed link operation in a CsiProxyError with a code from the Node errno. */
export function linkError(action: string, path: string, error: unknown): CsiProxyError {
  if (isCsiProxyError(error)) return error;
  const errno = (error as { code?: unknown } | null)?.code;
  const reason = error instanceof Error ? error.message : String(error);
  return new CsiProxyError(`Could not ${action} ${path}: ${reason}`, {
    code: (typeof errno === "string" ? fsCodes[errno] : undefined) ?? "COMMAND_FAILED",
    cause: error,
  });
}
