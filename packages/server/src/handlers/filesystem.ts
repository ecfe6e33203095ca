import type { Filesystem } from "@csi-proxy/filesystem";
import type { PathMapping } from "../paths.js";
import type { CallScope, HandlerContext, Message, ServiceHandlers } from "./context.js";
import { flag, hostPath, rpcOf, text } from "./context.js";

/**
 * The filesystem group as one call may use it: confined to the folders the policy granted that
 * call, so a link or a swap can lead it nowhere else (the group's working dirs still bound it).
 */
function scoped(filesystem: Filesystem, paths: PathMapping, scope?: CallScope): Filesystem {
  if (scope === undefined || scope.roots.length === 0) return filesystem;
  return filesystem.confine(
    scope.roots.map((root) => paths.toHost(root)),
    scope.boundaries,
  );
}

/** filesystem v1 (`v1.Filesystem`); v1beta2 has the same surface. */
export function filesystemV1({ groups: { filesystem }, paths }: HandlerContext): ServiceHandlers {
  const host = (request: Message, field = "path") => hostPath(paths, request, field);
  return {
    async PathExists(request, options, scope) {
      const fs = scoped(filesystem, paths, scope);
      const { exists } = await fs.pathExists({ path: host(request) }, options);
      return { exists };
    },
    async Mkdir(request, options, scope) {
      await scoped(filesystem, paths, scope).mkdir({ path: host(request) }, options);
      return {};
    },
    async Rmdir(request, options, scope) {
      const fs = scoped(filesystem, paths, scope);
      await fs.rmdir({ path: host(request), force: flag(request, "force") }, options);
      return {};
    },
    async CreateSymlink(request, options, scope) {
      // Upstream checks the link (target_path) first, then what it points at (source_path).
      const targetPath = host(request, "target_path");
      const sourcePath = host(request, "source_path");
      // Pinned: what the link shows cannot be changed by re-pointing a name on the source's way.
      const pin = scope?.pinLinks === true;
      await scoped(filesystem, paths, scope).createSymlink(
        { sourcePath, targetPath, pin },
        options,
      );
      return {};
    },
    async IsSymlink(request, options, scope) {
      const fs = scoped(filesystem, paths, scope);
      const { isSymlink } = await fs.isSymlink({ path: host(request) }, options);
      return { is_symlink: isSymlink };
    },
  };
}

/** filesystem v2alpha1 (`v2alpha1.Filesystem`): v1 plus RmdirContents. */
export function filesystemV2alpha1(context: HandlerContext): ServiceHandlers {
  const { filesystem } = context.groups;
  return {
    ...filesystemV1(context),
    async RmdirContents(request, options, scope) {
      await scoped(filesystem, context.paths, scope).rmdirContents(
        { path: hostPath(context.paths, request, "path") },
        options,
      );
      return {};
    },
  };
}

/** filesystem v1beta2 (`v1beta2.Filesystem`): the same surface as v1. */
export const filesystemV1beta2 = filesystemV1;

/**
 * filesystem v1alpha1 and v1beta1 (`v1alpha1.Filesystem`, `v1beta1.Filesystem`): v1's RPCs with
 * LinkPath for CreateSymlink and IsMountPoint for IsSymlink. The requests' PathContext is ignored
 * (upstream's since it merged the plugin and pod prefixes); every response's `error` is empty, a
 * failure being the call's status, as upstream's forwarding answers.
 */
export function filesystemV1alpha1(context: HandlerContext): ServiceHandlers {
  const v1 = filesystemV1(context);
  const path = (request: Message) => ({ path: text(request, "path") });
  return {
    async PathExists(request, options, scope) {
      const { exists } = await rpcOf(v1, "PathExists")(path(request), options, scope);
      return { error: "", exists };
    },
    async Mkdir(request, options, scope) {
      await rpcOf(v1, "Mkdir")(path(request), options, scope);
      return { error: "" };
    },
    async Rmdir(request, options, scope) {
      const rmdir = rpcOf(v1, "Rmdir");
      await rmdir({ ...path(request), force: flag(request, "force") }, options, scope);
      return { error: "" };
    },
    async LinkPath(request, options, scope) {
      await rpcOf(v1, "CreateSymlink")(
        { source_path: text(request, "source_path"), target_path: text(request, "target_path") },
        options,
        scope,
      );
      return { error: "" };
    },
    async IsMountPoint(request, options, scope) {
      const { is_symlink } = await rpcOf(v1, "IsSymlink")(path(request), options, scope);
      return { error: "", is_mount_point: is_symlink };
    },
  };
}

/** filesystem v1beta1 (`v1beta1.Filesystem`): the same surface as v1alpha1. */
export const filesystemV1beta1 = filesystemV1alpha1;
