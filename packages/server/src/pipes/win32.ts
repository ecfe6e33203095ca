import type * as KoffiModule from "koffi";
import { loadKoffiOnWindows, type Koffi } from "../koffi.js";
import { type PipeApi, type PipeHandle, Win32Error, WinError } from "./api.js";
import { EventWaiter, type WaitPrimitives } from "./waiter.js";

/** Win32 typedefs as koffi sees them; HANDLE as intptr_t so handles are plain numbers. */
export const WIN32_TYPEDEFS = {
  HANDLE: "intptr_t",
  DWORD: "uint32_t",
  BOOL: "int32_t",
  ULONG: "uint32_t",
} as const;

/** The x64 layout of the structs the calls take; the OVERLAPPED union is its Offset pair. */
export const WIN32_STRUCTS = {
  SECURITY_ATTRIBUTES: { nLength: "DWORD", lpSecurityDescriptor: "void *", bInheritHandle: "BOOL" },
  OVERLAPPED: {
    Internal: "uintptr_t",
    InternalHigh: "uintptr_t",
    Offset: "DWORD",
    OffsetHigh: "DWORD",
    hEvent: "HANDLE",
  },
} as const;

/** Every foreign function, declared once; test/pipes-win32.test.ts checks them against the SDK. */
export const WIN32_PROTOTYPES = {
  CreateNamedPipeW: {
    dll: "kernel32.dll",
    decl: "HANDLE __stdcall CreateNamedPipeW(const char16_t *lpName, DWORD dwOpenMode, DWORD dwPipeMode, DWORD nMaxInstances, DWORD nOutBufferSize, DWORD nInBufferSize, DWORD nDefaultTimeOut, SECURITY_ATTRIBUTES *lpSecurityAttributes)",
  },
  ConnectNamedPipe: {
    dll: "kernel32.dll",
    decl: "BOOL __stdcall ConnectNamedPipe(HANDLE hNamedPipe, void *lpOverlapped)",
  },
  ReadFile: {
    dll: "kernel32.dll",
    decl: "BOOL __stdcall ReadFile(HANDLE hFile, void *lpBuffer, DWORD nNumberOfBytesToRead, DWORD *lpNumberOfBytesRead, void *lpOverlapped)",
  },
  WriteFile: {
    dll: "kernel32.dll",
    decl: "BOOL __stdcall WriteFile(HANDLE hFile, const void *lpBuffer, DWORD nNumberOfBytesToWrite, DWORD *lpNumberOfBytesWritten, void *lpOverlapped)",
  },
  GetOverlappedResult: {
    dll: "kernel32.dll",
    decl: "BOOL __stdcall GetOverlappedResult(HANDLE hFile, void *lpOverlapped, _Out_ DWORD *lpNumberOfBytesTransferred, BOOL bWait)",
  },
  CancelIoEx: {
    dll: "kernel32.dll",
    decl: "BOOL __stdcall CancelIoEx(HANDLE hFile, void *lpOverlapped)",
  },
  DisconnectNamedPipe: {
    dll: "kernel32.dll",
    decl: "BOOL __stdcall DisconnectNamedPipe(HANDLE hNamedPipe)",
  },
  GetNamedPipeClientProcessId: {
    dll: "kernel32.dll",
    decl: "BOOL __stdcall GetNamedPipeClientProcessId(HANDLE Pipe, _Out_ ULONG *ClientProcessId)",
  },
  CloseHandle: { dll: "kernel32.dll", decl: "BOOL __stdcall CloseHandle(HANDLE hObject)" },
  LocalFree: { dll: "kernel32.dll", decl: "void * __stdcall LocalFree(void *hMem)" },
  CreateEventW: {
    dll: "kernel32.dll",
    decl: "HANDLE __stdcall CreateEventW(SECURITY_ATTRIBUTES *lpEventAttributes, BOOL bManualReset, BOOL bInitialState, const char16_t *lpName)",
  },
  SetEvent: { dll: "kernel32.dll", decl: "BOOL __stdcall SetEvent(HANDLE hEvent)" },
  WaitForMultipleObjects: {
    dll: "kernel32.dll",
    decl: "DWORD __stdcall WaitForMultipleObjects(DWORD nCount, const HANDLE *lpHandles, BOOL bWaitAll, DWORD dwMilliseconds)",
  },
  GetLastError: { dll: "kernel32.dll", decl: "DWORD __stdcall GetLastError()" },
  ConvertStringSecurityDescriptorToSecurityDescriptorW: {
    dll: "advapi32.dll",
    decl: "BOOL __stdcall ConvertStringSecurityDescriptorToSecurityDescriptorW(const char16_t *StringSecurityDescriptor, DWORD StringSDRevision, _Out_ void **SecurityDescriptor, ULONG *SecurityDescriptorSize)",
  },
} as const;

export type Win32FunctionName = keyof typeof WIN32_PROTOTYPES;

const PIPE_ACCESS_DUPLEX = 0x3;
const FILE_FLAG_OVERLAPPED = 0x40000000;
const FILE_FLAG_FIRST_PIPE_INSTANCE = 0x00080000;
const PIPE_TYPE_BYTE = 0x0;
const PIPE_READMODE_BYTE = 0x0;
const PIPE_WAIT = 0x0;
const PIPE_REJECT_REMOTE_CLIENTS = 0x8;
const PIPE_UNLIMITED_INSTANCES = 255;
const PIPE_BUFFER_SIZE = 64 * 1024;
const SDDL_REVISION_1 = 1;
const INFINITE = 0xffffffff;
const INVALID_HANDLE_VALUE = -1;

/** The flags CreateNamedPipeW gets; exported so the test pins them. */
export function pipeModes(first: boolean): { openMode: number; pipeMode: number } {
  return {
    openMode:
      PIPE_ACCESS_DUPLEX | FILE_FLAG_OVERLAPPED | (first ? FILE_FLAG_FIRST_PIPE_INSTANCE : 0),
    pipeMode: PIPE_TYPE_BYTE | PIPE_READMODE_BYTE | PIPE_WAIT | PIPE_REJECT_REMOTE_CLIENTS,
  };
}

const defined = new WeakSet<object>();

/** Registers the typedefs and structs with koffi once; koffi refuses a second definition. */
export function defineWin32Types(koffi: Koffi): void {
  if (defined.has(koffi)) return;
  for (const [name, type] of Object.entries(WIN32_TYPEDEFS)) koffi.alias(name, type);
  for (const [name, fields] of Object.entries(WIN32_STRUCTS)) koffi.struct(name, fields);
  defined.add(koffi);
}

// Bound lazily: koffi is only required on Windows, so importing this module elsewhere is free.
type Bound = Record<Win32FunctionName, unknown>;

function bind(koffi: Koffi): Bound {
  defineWin32Types(koffi);
  const libraries = new Map<string, KoffiModule.LibraryHandle>();
  const bound: Partial<Bound> = {};
  for (const [name, { dll, decl }] of Object.entries(WIN32_PROTOTYPES)) {
    let library = libraries.get(dll);
    if (library === undefined) {
      library = koffi.load(dll);
      libraries.set(dll, library);
    }
    bound[name as Win32FunctionName] = library.func(decl);
  }
  return bound as Bound;
}

interface Op {
  event: number;
  overlapped: bigint;
}

/** Per-handle state, captured by each operation so a reused handle number is never mistaken for it. */
interface HandleState {
  closed: boolean;
}

let cached: PipeApi | undefined;

/**
 * The koffi-backed {@link PipeApi}: overlapped CreateNamedPipeW/ConnectNamedPipe/ReadFile/
 * WriteFile, completions awaited by an {@link EventWaiter} off the event loop.
 *
 * @throws CsiProxyError UNSUPPORTED off Windows or when koffi cannot load.
 */
export function loadWin32PipeApi(): PipeApi {
  if (cached !== undefined) return cached;
  const koffi = loadKoffiOnWindows("named pipes are served on Windows only");
  cached = createWin32PipeApi(koffi);
  return cached;
}

type Native = (...args: unknown[]) => unknown;
type NativeFunction = Native & { async: (...args: unknown[]) => void };

function createWin32PipeApi(koffi: Koffi): PipeApi {
  const fn = bind(koffi) as unknown as Record<Win32FunctionName, NativeFunction>;
  const lastError = (): number => Number(fn.GetLastError());
  const handles = new Map<PipeHandle, HandleState>();

  const primitives: WaitPrimitives = {
    createWakeEvent() {
      const event = Number(fn.CreateEventW(null, 0, 0, null));
      if (event === 0) throw new Win32Error("CreateEventW", lastError());
      return event;
    },
    setEvent(event) {
      fn.SetEvent(event);
    },
    waitAny(events, callback) {
      fn.WaitForMultipleObjects.async(
        events.length,
        [...events],
        0,
        INFINITE,
        (error: unknown, index: unknown) => {
          callback(error, Number(index));
        },
      );
    },
  };
  const waiter = new EventWaiter(primitives);

  function begin(): Op {
    const event = Number(fn.CreateEventW(null, 1, 0, null));
    if (event === 0) throw new Win32Error("CreateEventW", lastError());
    // Native memory: the kernel writes to the OVERLAPPED after the call that started the I/O returns.
    const overlapped = koffi.alloc("OVERLAPPED", 1) as bigint;
    koffi.encode(overlapped, "OVERLAPPED", {
      Internal: 0,
      InternalHigh: 0,
      Offset: 0,
      OffsetHigh: 0,
      hEvent: event,
    });
    return { event, overlapped };
  }

  /**
   * Starts one overlapped call, waits for it off the event loop and hands its byte count to
   * `finish`; the OVERLAPPED and `buffer` are freed only once the kernel is done with them.
   */
  async function overlappedCall<T>(
    pipe: PipeHandle,
    syscall: string,
    start: (overlapped: bigint) => unknown,
    finish: (transferred: number) => T,
    options: { buffer?: bigint; connected?: T } = {},
  ): Promise<T> {
    const state = handles.get(pipe);
    if (state === undefined || state.closed)
      throw new Win32Error(syscall, WinError.ERROR_INVALID_HANDLE);
    const op = begin();
    let inFlight = false;
    try {
      if (Number(start(op.overlapped)) === 0) {
        const errno = lastError();
        // ERROR_PIPE_CONNECTED: the client came between CreateNamedPipeW and ConnectNamedPipe.
        if (errno === WinError.ERROR_PIPE_CONNECTED && "connected" in options)
          return options.connected;
        if (errno !== WinError.ERROR_IO_PENDING) throw new Win32Error(syscall, errno);
      }
      inFlight = true;
      await waiter.wait(op.event);
      inFlight = false;
      // close() drops the state; a reused handle number gets a fresh one.
      if (handles.get(pipe) !== state)
        throw new Win32Error(syscall, WinError.ERROR_OPERATION_ABORTED);
      const transferred = [0];
      if (Number(fn.GetOverlappedResult(pipe, op.overlapped, transferred, 0)) === 0) {
        throw new Win32Error(syscall, lastError());
      }
      return finish(transferred[0] ?? 0);
    } finally {
      // Only a failed wait leaves the I/O possibly running: leak its memory then rather than free it under the kernel.
      if (!inFlight) {
        fn.CloseHandle(op.event);
        koffi.free(op.overlapped);
        if (options.buffer !== undefined) koffi.free(options.buffer);
      }
    }
  }

  return {
    create(name, sddl, first) {
      const sd: (bigint | null)[] = [null];
      if (
        Number(
          fn.ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl, SDDL_REVISION_1, sd, null),
        ) === 0
      ) {
        throw new Win32Error("ConvertStringSecurityDescriptorToSecurityDescriptorW", lastError());
      }
      try {
        const { openMode, pipeMode } = pipeModes(first);
        const attributes = {
          nLength: koffi.sizeof("SECURITY_ATTRIBUTES"),
          lpSecurityDescriptor: sd[0],
          bInheritHandle: 0,
        };
        const pipe = Number(
          fn.CreateNamedPipeW(
            name,
            openMode,
            pipeMode,
            PIPE_UNLIMITED_INSTANCES,
            PIPE_BUFFER_SIZE,
            PIPE_BUFFER_SIZE,
            0,
            attributes,
          ),
        );
        if (pipe === INVALID_HANDLE_VALUE || pipe === 0)
          throw new Win32Error("CreateNamedPipeW", lastError());
        handles.set(pipe, { closed: false });
        return pipe;
      } finally {
        fn.LocalFree(sd[0]);
      }
    },

    connect(pipe) {
      return overlappedCall(
        pipe,
        "ConnectNamedPipe",
        (ov) => fn.ConnectNamedPipe(pipe, ov),
        () => undefined,
        { connected: undefined },
      );
    },

    read(pipe, size) {
      const buffer = koffi.alloc("uint8_t", size) as bigint;
      return overlappedCall(
        pipe,
        "ReadFile",
        (ov) => fn.ReadFile(pipe, buffer, size, null, ov),
        (count) => Buffer.from(new Uint8Array(koffi.view(buffer, count))),
        { buffer },
      );
    },

    write(pipe, data) {
      if (data.length === 0) return Promise.resolve(0);
      const buffer = koffi.alloc("uint8_t", data.length) as bigint;
      new Uint8Array(koffi.view(buffer, data.length)).set(data);
      return overlappedCall(
        pipe,
        "WriteFile",
        (ov) => fn.WriteFile(pipe, buffer, data.length, null, ov),
        (count) => count,
        { buffer },
      );
    },

    cancel(pipe) {
      if (handles.get(pipe)?.closed === false) fn.CancelIoEx(pipe, null);
    },

    disconnect(pipe) {
      if (handles.get(pipe)?.closed === false) fn.DisconnectNamedPipe(pipe);
    },

    clientProcessId(pipe) {
      if (handles.get(pipe)?.closed !== false) return undefined;
      const pid = [0];
      return Number(fn.GetNamedPipeClientProcessId(pipe, pid)) === 0 ? undefined : pid[0];
    },

    close(pipe) {
      const state = handles.get(pipe);
      if (state === undefined || state.closed) return;
      state.closed = true;
      handles.delete(pipe);
      fn.CloseHandle(pipe);
    },
  };
}
