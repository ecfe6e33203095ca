/** A pipe instance handle as the binding hands it out; opaque to everything but the binding. */
export type PipeHandle = number;

/** Win32 error codes the pipe code branches on. */
export const WinError = {
  ERROR_BROKEN_PIPE: 109,
  ERROR_PIPE_BUSY: 231,
  ERROR_NO_DATA: 232,
  ERROR_PIPE_NOT_CONNECTED: 233,
  ERROR_PIPE_CONNECTED: 535,
  ERROR_IO_INCOMPLETE: 996,
  ERROR_IO_PENDING: 997,
  ERROR_OPERATION_ABORTED: 995,
  ERROR_ACCESS_DENIED: 5,
  ERROR_INVALID_HANDLE: 6,
} as const;

/** A failed Win32 call: `errno` is GetLastError()'s value, `syscall` the function that failed. */
export class Win32Error extends Error {
  /** `Win32Error`. */
  override readonly name = "Win32Error";
  /** GetLastError()'s value, e.g. 5 (ERROR_ACCESS_DENIED). */
  readonly errno: number;
  /** The Win32 function that failed, e.g. `CreateNamedPipeW`. */
  readonly syscall: string;

  constructor(syscall: string, errno: number) {
    super(`${syscall} failed: Win32 error ${errno}`);
    this.errno = errno;
    this.syscall = syscall;
  }
}

/** Whether `error` means the client went away: the stream ends cleanly rather than failing. */
export function isPeerGone(error: unknown): boolean {
  if (!(error instanceof Win32Error)) return false;
  return (
    error.errno === WinError.ERROR_BROKEN_PIPE ||
    error.errno === WinError.ERROR_NO_DATA ||
    error.errno === WinError.ERROR_PIPE_NOT_CONNECTED
  );
}

/**
 * The named-pipe operations the listener and the stream need, one promise per overlapped call so
 * a pending read never holds up a write. The Win32 binding (koffi) implements it on Windows; tests
 * use an in-memory fake.
 */
export interface PipeApi {
  /** CreateNamedPipeW for one more instance; `first` adds FILE_FLAG_FIRST_PIPE_INSTANCE. */
  create(name: string, sddl: string, first: boolean): PipeHandle;
  /** ConnectNamedPipe: resolves once a client is connected to this instance. */
  connect(pipe: PipeHandle): Promise<void>;
  /** ReadFile of up to `size` bytes; rejects with a {@link Win32Error}. */
  read(pipe: PipeHandle, size: number): Promise<Buffer>;
  /** WriteFile of `data`; resolves with the byte count written. */
  write(pipe: PipeHandle, data: Uint8Array): Promise<number>;
  /** CancelIoEx for every pending operation on the handle; pending promises then reject. */
  cancel(pipe: PipeHandle): void;
  /** DisconnectNamedPipe: drops the client, discarding data it has not read. */
  disconnect(pipe: PipeHandle): void;
  /**
   * GetNamedPipeClientProcessId of a connected instance: the client's process id, for the audit
   * log; undefined when Windows cannot say.
   */
  clientProcessId(pipe: PipeHandle): number | undefined;
  /** CloseHandle; pending operations still settle (ERROR_OPERATION_ABORTED). */
  close(pipe: PipeHandle): void;
}
