import type { CallContext } from "@csi-proxy/exec";
import type { FilesystemHost } from "./host.js";
import { nothingHeld, type HeldDirectory } from "./held-directory.js";

/**
 * The host's `openDirectory`, or for a host without one the same checks by name (a link is
 * ELOOP, anything else but a directory ENOTDIR) with nothing held, so one walk serves both.
 * `volume`: the name is a volume mount point or a link to a volume, already decided on, which
 * is entered (a host's own `openDirectory` opens the mounted volume, as opening it does on
 * Windows; by name, a link to a volume `lstat`s as a link).
 */
async function holdDirectory(
  host: FilesystemHost,
  path: string,
  context: CallContext,
  volume: boolean,
): Promise<HeldDirectory> {
  if (host.openDirectory !== undefined) return host.openDirectory(path, context);
  const stats = await (volume ? host.stat(path, context) : host.lstat(path, context));
  if (stats.isSymbolicLink() || !stats.isDirectory()) {
    const code = stats.isSymbolicLink() ? "ELOOP" : "ENOTDIR";
    throw Object.assign(new Error(`${code}: openDirectory '${path}'`), { code, path });
  }
  return { path, close: nothingHeld };
}

/** A {@link FilesystemHost} bound to one method call's deadline. */
export interface DeadlineHost extends FilesystemHost {
  /** Always there: the host's own, or checks by name that hold nothing. */
  openDirectory(path: string): Promise<HeldDirectory>;
  /** {@link openDirectory} of a volume mount point or a link to a volume, decided on already. */
  enterVolume(path: string): Promise<HeldDirectory>;
  /** The call's deadline and signal. */
  readonly context: CallContext;
  /** Resolves once every fs call started through this host has returned, abandoned ones too. */
  settled(): Promise<void>;
}

/**
 * The host as one method call uses it: every fs call is refused once the call is over (so a
 * tree walk stops between entries), and raced with the deadline, because Node's fs calls cannot
 * be cancelled and one on a dead SMB share may not return for minutes. An abandoned fs call
 * keeps running; `settled()` tells when it has returned.
 */
export function deadlineHost(host: FilesystemHost, context: CallContext): DeadlineHost {
  const running = new Set<Promise<unknown>>();

  function step<T>(call: () => Promise<T>): Promise<T> {
    context.throwIfDone();
    const pending = call();
    running.add(pending);
    const forget = (): void => void running.delete(pending);
    pending.then(forget, forget);
    return context.race(pending);
  }

  return {
    context,
    lstat: (path) => step(() => host.lstat(path, context)),
    stat: (path) => step(() => host.stat(path, context)),
    readlink: (path) => step(() => host.readlink(path, context)),
    realpath: (path) => step(() => host.realpath(path, context)),
    mkdir: (path) => step(() => host.mkdir(path, context)),
    rmdir: (path) => step(() => host.rmdir(path, context)),
    unlink: (path) => step(() => host.unlink(path, context)),
    readdir: (path) => step(() => host.readdir(path, context)),
    symlink: (target, path, type) => step(() => host.symlink(target, path, type, context)),
    ...(host.reparsePoint !== undefined && {
      reparsePoint: (path: string) =>
        step(() =>
          (host.reparsePoint as NonNullable<FilesystemHost["reparsePoint"]>)(path, context),
        ),
    }),
    openDirectory: (path) => hold(path, false),
    enterVolume: (path) => hold(path, true),
    async settled() {
      while (running.size > 0) await Promise.allSettled([...running]);
    },
  };

  function hold(path: string, volume: boolean): Promise<HeldDirectory> {
    let abandoned = false;
    const held = step(async () => {
      const directory = await holdDirectory(host, path, context, volume);
      // Opened after the call gave up on it: nothing will close it but this.
      if (abandoned) await directory.close();
      return directory;
    });
    return held.catch((error: unknown) => {
      abandoned = true;
      throw error;
    });
  }
}
