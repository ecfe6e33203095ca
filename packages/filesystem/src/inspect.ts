import type { CallContext } from "@csi-proxy/exec";
import type { FilesystemHost } from "./host.js";
import { classifyReparsePoint, reparseTags, type PathEntry } from "./reparse.js";

/**
 * What the name at `path` is on the host (see {@link PathEntry}), the one classification that
 * every walk through links uses: the Filesystem group's confined walk and a server's check of
 * where a request's path leads. A host that can read reparse data (`reparsePoint`: Windows, a
 * simulated Windows host) is asked for it, because `lstat` follows what libuv cannot read as a
 * link (a junction to a volume reads as a plain folder). A host without it has no reparse points
 * beyond what `lstat` calls a link (Linux). Throws the host's error (ENOENT for a missing name).
 */
export async function inspectEntry(
  host: Pick<FilesystemHost, "lstat" | "readlink" | "reparsePoint">,
  path: string,
  context?: CallContext,
): Promise<PathEntry> {
  if (host.reparsePoint !== undefined) {
    return classifyReparsePoint(await host.reparsePoint(path, context));
  }
  if (!(await host.lstat(path, context)).isSymbolicLink()) return { kind: "plain" };
  return classifyReparsePoint({
    tag: reparseTags.SYMLINK,
    target: await host.readlink(path, context),
  });
}
