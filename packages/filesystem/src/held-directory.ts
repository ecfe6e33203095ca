import { constants } from "node:fs";
import { open } from "node:fs/promises";

/** A directory held open for one call (see {@link FilesystemHost.openDirectory}). */
export interface HeldDirectory {
  /** A path that reaches the held directory itself, to act on it and inside it. */
  readonly path: string;
  /** Lets it go. */
  close(): Promise<void>;
}

/** The `close` of a directory acted on by name, with nothing held. */
export const nothingHeld = (): Promise<void> => Promise.resolve();

/**
 * Linux: an O_NOFOLLOW descriptor, reached as `/proc/self/fd/<fd>`, a name the kernel maps to
 * the open directory itself, never re-resolved by path.
 */
async function openLinux(path: string): Promise<HeldDirectory> {
  const handle = await open(
    path,
    constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW,
  );
  return { path: `/proc/self/fd/${handle.fd}`, close: () => handle.close() };
}

/**
 * The platform's `openDirectory`, where Node can hold a folder so: Linux only. On Windows
 * libuv's open either shares everything (a rename goes through) or nothing (UV_FS_O_EXLOCK, which
 * also refuses this process's own listing of the folder), so a host there supplies its own.
 */
export function platformOpenDirectory(): {
  openDirectory?: (path: string) => Promise<HeldDirectory>;
} {
  return process.platform === "linux" ? { openDirectory: openLinux } : {};
}
