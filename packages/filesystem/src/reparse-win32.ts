import type { ReparsePoint } from "./reparse.js";

/**
 * The part of koffi (the Win32 FFI) the reader uses, so a caller can pass the module it loaded
 * (`import koffi from "koffi"`), and the declarations can be checked where koffi only parses.
 */
export interface KoffiLike {
  load(path: string): { func(declaration: string): unknown };
}

/**
 * Every foreign function the reader calls, with the SDK's types spelled as koffi's primitives
 * (no `koffi.alias`: aliases are global to the koffi module, and another package may define
 * `HANDLE` itself). test/reparse-win32.test.ts checks them against the SDK headers.
 */
export const REPARSE_PROTOTYPES = {
  CreateFileW:
    "intptr_t __stdcall CreateFileW(const char16_t *lpFileName, uint32_t dwDesiredAccess, uint32_t dwShareMode, void *lpSecurityAttributes, uint32_t dwCreationDisposition, uint32_t dwFlagsAndAttributes, intptr_t hTemplateFile)",
  GetFileInformationByHandleEx:
    "int32_t __stdcall GetFileInformationByHandleEx(intptr_t hFile, int32_t FileInformationClass, _Out_ uint8_t *lpFileInformation, uint32_t dwBufferSize)",
  DeviceIoControl:
    "int32_t __stdcall DeviceIoControl(intptr_t hDevice, uint32_t dwIoControlCode, void *lpInBuffer, uint32_t nInBufferSize, _Out_ uint8_t *lpOutBuffer, uint32_t nOutBufferSize, _Out_ uint32_t *lpBytesReturned, void *lpOverlapped)",
  CloseHandle: "int32_t __stdcall CloseHandle(intptr_t hObject)",
  GetLastError: "uint32_t __stdcall GetLastError()",
} as const;

// winnt.h / winbase.h / winioctl.h / minwinbase.h.
const FILE_READ_ATTRIBUTES = 0x80;
const FILE_SHARE_ALL = 0x1 | 0x2 | 0x4;
const OPEN_EXISTING = 3;
// Open the reparse point itself, not what it leads to; a folder needs backup semantics to open.
const FILE_FLAG_OPEN_REPARSE_POINT = 0x00200000;
const FILE_FLAG_BACKUP_SEMANTICS = 0x02000000;
const INVALID_HANDLE_VALUE = -1;
const FileAttributeTagInfo = 9;
const FILE_ATTRIBUTE_REPARSE_POINT = 0x400;
const FSCTL_GET_REPARSE_POINT = 0x000900a8;
const MAXIMUM_REPARSE_DATA_BUFFER_SIZE = 16 * 1024;
const IO_REPARSE_TAG_MOUNT_POINT = 0xa0000003;
const IO_REPARSE_TAG_SYMLINK = 0xa000000c;

/** Win32 errors as the errno codes Node's fs uses (libuv's uv_translate_sys_error). */
const errnoOf: Readonly<Record<number, string>> = {
  2: "ENOENT", // ERROR_FILE_NOT_FOUND
  3: "ENOENT", // ERROR_PATH_NOT_FOUND
  5: "EPERM", // ERROR_ACCESS_DENIED
  32: "EBUSY", // ERROR_SHARING_VIOLATION
  123: "ENOENT", // ERROR_INVALID_NAME
  161: "ENOENT", // ERROR_BAD_PATHNAME
  206: "ENAMETOOLONG", // ERROR_FILENAME_EXCED_RANGE
  267: "ENOTDIR", // ERROR_DIRECTORY
  1921: "ELOOP", // ERROR_CANT_RESOLVE_FILENAME
};

function win32Error(syscall: string, path: string, code: number): Error {
  const errno = errnoOf[code] ?? "EIO";
  return Object.assign(new Error(`${errno}: ${syscall} '${path}' (Win32 error ${code})`), {
    code: errno,
    syscall,
    path,
    win32Code: code,
  });
}

/** `C:\x` → `\\?\C:\x`, `\\srv\share\x` → `\\?\UNC\srv\share\x`: no MAX_PATH, no reinterpretation. */
function extendedPath(path: string): string {
  if (path.startsWith("\\\\?\\")) return path;
  if (/^[a-z]:\\/i.test(path)) return `\\\\?\\${path}`;
  if (path.startsWith("\\\\")) return `\\\\?\\UNC\\${path.slice(2)}`;
  return path;
}

/**
 * The substitute name of REPARSE_DATA_BUFFER (ntifs.h): for a symbolic link its path buffer
 * starts after a 4-byte Flags field, for a mount point right after the offsets.
 */
export function substituteName(data: Buffer): { tag: number; target?: string } {
  if (data.length < 16) return { tag: data.length < 4 ? 0 : data.readUInt32LE(0) };
  const tag = data.readUInt32LE(0);
  if (tag !== IO_REPARSE_TAG_SYMLINK && tag !== IO_REPARSE_TAG_MOUNT_POINT) return { tag };
  const offset = data.readUInt16LE(8);
  const length = data.readUInt16LE(10);
  const buffer = tag === IO_REPARSE_TAG_SYMLINK ? 20 : 16;
  if (buffer + offset + length > data.length) return { tag };
  return { tag, target: data.toString("utf16le", buffer + offset, buffer + offset + length) };
}

type Native = (...args: unknown[]) => unknown;

/**
 * Reads a path's reparse point on Windows: opens the name itself (FILE_FLAG_OPEN_REPARSE_POINT),
 * asks its attributes and tag (GetFileInformationByHandleEx, FileAttributeTagInfo) and, for a
 * reparse point, its data (DeviceIoControl FSCTL_GET_REPARSE_POINT). `undefined` for a name that
 * is no reparse point; errors as Node's fs gives them (ENOENT, EPERM, ...).
 */
export function createWin32ReparseReader(
  koffi: KoffiLike,
): (path: string) => Promise<ReparsePoint | undefined> {
  const kernel32 = koffi.load("kernel32.dll");
  const fn = Object.fromEntries(
    Object.entries(REPARSE_PROTOTYPES).map(([name, declaration]) => [
      name,
      kernel32.func(declaration) as Native,
    ]),
  ) as Record<keyof typeof REPARSE_PROTOTYPES, Native>;
  const lastError = (): number => Number(fn.GetLastError());

  // The calls are synchronous (a local name, opened without following it); errors reject.
  const read = (path: string): ReparsePoint | undefined => {
    const handle = Number(
      fn.CreateFileW(
        extendedPath(path),
        FILE_READ_ATTRIBUTES,
        FILE_SHARE_ALL,
        null,
        OPEN_EXISTING,
        FILE_FLAG_OPEN_REPARSE_POINT | FILE_FLAG_BACKUP_SEMANTICS,
        0,
      ),
    );
    if (handle === INVALID_HANDLE_VALUE) throw win32Error("open", path, lastError());
    try {
      const info = Buffer.alloc(8);
      if (!fn.GetFileInformationByHandleEx(handle, FileAttributeTagInfo, info, info.length)) {
        throw win32Error("stat", path, lastError());
      }
      if ((info.readUInt32LE(0) & FILE_ATTRIBUTE_REPARSE_POINT) === 0) return undefined;
      const data = Buffer.alloc(MAXIMUM_REPARSE_DATA_BUFFER_SIZE);
      const returned = [0];
      const ok = fn.DeviceIoControl(
        handle,
        FSCTL_GET_REPARSE_POINT,
        null,
        0,
        data,
        data.length,
        returned,
        null,
      );
      // Unreadable reparse data still marks a reparse point: tag 0, never followed.
      if (!ok) return { tag: info.readUInt32LE(4) };
      const read = substituteName(data.subarray(0, Number(returned[0])));
      return read.target === undefined ? { tag: read.tag } : read;
    } finally {
      fn.CloseHandle(handle);
    }
  };
  return (path) => new Promise((resolve) => resolve(read(path)));
}
