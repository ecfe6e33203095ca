import { CsiProxyError } from "@csi-proxy/exec";
import { windowsPath, withinRoots } from "../paths.js";
import type { HandlerContext, ServiceHandlers } from "./context.js";
import { optionalText, rpcOf, text } from "./context.js";
import { confinedSmbLinks } from "./smb-links.js";

/** smb v1 (`v1.Smb`); v1beta2 has the same surface. */
export function smbV1({
  groups: { smb, filesystem },
  paths,
  workingDirs,
  requirePrivacy,
}: HandlerContext): ServiceHandlers {
  return {
    async NewSmbGlobalMapping(request, options, scope) {
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
      // The link is made through the filesystem group confined to the caller's folders.
      const mapper =
        scope === undefined || scope.roots.length === 0
          ? smb
          : smb.withLinks(
              confinedSmbLinks(
                filesystem.confine(
                  scope.roots.map((root) => paths.toHost(root)),
                  scope.boundaries,
                ),
              ),
            );
      await mapper.newSmbGlobalMapping(
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

/** smb v1beta2 (`v1beta2.Smb`): the same surface as v1. */
export const smbV1beta2 = smbV1;

/**
 * smb v1alpha1 and v1beta1 (`v1alpha1.Smb`, `v1beta1.Smb`): v1's requests; the responses carry
 * an `error` text, always empty (a failure is the call's status), as upstream's forwarding answers.
 */
export function smbV1alpha1(context: HandlerContext): ServiceHandlers {
  const v1 = smbV1(context);
  return {
    async NewSmbGlobalMapping(request, options, scope) {
      await rpcOf(v1, "NewSmbGlobalMapping")(request, options, scope);
      return { error: "" };
    },
    async RemoveSmbGlobalMapping(request, options) {
      await rpcOf(v1, "RemoveSmbGlobalMapping")(request, options);
      return { error: "" };
    },
  };
}

/** smb v1beta1 (`v1beta1.Smb`): the same surface as v1alpha1. */
export const smbV1beta1 = smbV1alpha1;
