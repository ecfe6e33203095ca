import { dirname } from "node:path";
import type { CallContext, CallOptions } from "@csi-proxy/exec";
import type { Filesystem } from "@csi-proxy/filesystem";
import type { LocalEntry, SmbLinkHost } from "@csi-proxy/smb";
import { confined } from "../confined-refusal.js";

function optionsOf(context: CallContext | undefined): CallOptions {
  const remaining = context?.remainingMs();
  return {
    ...(context === undefined ? {} : { signal: context.signal }),
    ...(remaining === undefined ? {} : { timeoutMs: Math.max(remaining, 1) }),
  };
}

/**
 * An SMB mapping's link made through the filesystem group confined to the caller's folders: each
 * step walks `local_path` one name at a time through folders held open (on Linux), so a folder
 * of the caller's swapped for a link while the call runs cannot carry the link into another's
 * folder, and the link to the share is pinned and allowed by the call's share boundary.
 */
export function confinedSmbLinks(filesystem: Filesystem): SmbLinkHost {
  return {
    async readLink(path, context): Promise<LocalEntry> {
      const entry = await confined(() => filesystem.inspect({ path }, optionsOf(context)));
      switch (entry.kind) {
        case "missing":
        case "file":
          return { kind: entry.kind };
        case "directory":
          return { kind: "directory", empty: entry.empty === true };
        default:
          // A link of any kind: its target is compared with the share's path; none matches it
          // but a link to that share.
          return { kind: "link", target: entry.target ?? "" };
      }
    },
    async removeEmptyDirectory(path, context) {
      await confined(() => filesystem.rmdir({ path }, optionsOf(context)));
    },
    async createLink(path, target, context) {
      await confined(async () => {
        await filesystem.mkdir({ path: dirname(path) }, optionsOf(context));
        await filesystem.createSymlink(
          { sourcePath: target, targetPath: path, pin: true },
          optionsOf(context),
        );
      });
    },
  };
}
