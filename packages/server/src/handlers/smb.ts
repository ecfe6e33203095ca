import { CsiProxyError } from "@csi-proxy/exec";
import { windowsPath, withinRoots } from "../paths.js";
import type { HandlerContext, ServiceHandlers } from "./context.js";
import { optionalText, text } from "./context.js";

/** smb v1 (`v1.Smb`); v1beta2 has the same surface. */
export function smbV1({
  groups: { smb },
  paths,
  workingDirs,
  requirePrivacy,
}: HandlerContext): ServiceHandlers {
  return {
    async NewSmbGlobalMapping(request, options) {
      const local = optionalText(request, "local_path");
      let localPath: string | undefined;
      if (local !== undefined) {
        // Upstream v1's rule for local_path (ValidatePluginPath), checked before anything runs.
        const path = windowsPath(local);
        if (!withinRoots(path, workingDirs)) {
          throw new CsiProxyError(
            `path: ${path} is not within the working directories: [${workingDirs.join(" ")}]`,
            { code: "PERMISSION_DENIED" },
          );
        }
        localPath = paths.toHost(path);
      }
      const username = optionalText(request, "username");
      const password = optionalText(request, "password");
      await smb.newSmbGlobalMapping(
        {
          remotePath: text(request, "remote_path"),
          requirePrivacy,
          ...(localPath === undefined ? {} : { localPath }),
          ...(username === undefined ? {} : { username }),
          ...(password === undefined ? {} : { password }),
        },
        options,
      );
      return {};
    },
    async RemoveSmbGlobalMapping(request, options) {
      await smb.removeSmbGlobalMapping({ remotePath: text(request, "remote_path") }, options);
      return {};
    },
  };
}
