import type { HandlerContext, Message, ServiceHandlers } from "./context.js";
import { flag, hostPath, rpcOf, text } from "./context.js";

/** filesystem v1 (`v1.Filesystem`); v1beta2 has the same surface. */
export function filesystemV1({ groups: { filesystem }, paths }: HandlerContext): ServiceHandlers {
  const host = (request: Message, field = "path") => hostPath(paths, request, field);
  return {
    async PathExists(request, options) {
      const { exists } = await filesystem.pathExists({ path: host(request) }, options);
      return { exists };
    },
    async Mkdir(request, options) {
      await filesystem.mkdir({ path: host(request) }, options);
      return {};
    },
    async Rmdir(request, options) {
      await filesystem.rmdir({ path: host(request), force: flag(request, "force") }, options);
      return {};
    },
    async CreateSymlink(request, options) {
      // Upstream checks the link (target_path) first, then what it points at (source_path).
      const targetPath = host(request, "target_path");
      const sourcePath = host(request, "source_path");
      await filesystem.createSymlink({ sourcePath, targetPath }, options);
      return {};
    },
    async IsSymlink(request, options) {
      const { isSymlink } = await filesystem.isSymlink({ path: host(request) }, options);
      return { is_symlink: isSymlink };
    },
  };
}

/** filesystem v2alpha1 (`v2alpha1.Filesystem`): v1 plus RmdirContents. */
export function filesystemV2alpha1(context: HandlerContext): ServiceHandlers {
  const { filesystem } = context.groups;
  return {
    ...filesystemV1(context),
    async RmdirContents(request, options) {
      await filesystem.rmdirContents({ path: hostPath(context.paths, request, "path") }, options);
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
    async PathExists(request, options) {
      const { exists } = await rpcOf(v1, "PathExists")(path(request), options);
      return { error: "", exists };
    },
    async Mkdir(request, options) {
      await rpcOf(v1, "Mkdir")(path(request), options);
      return { error: "" };
    },
    async Rmdir(request, options) {
      await rpcOf(v1, "Rmdir")({ ...path(request), force: flag(request, "force") }, options);
      return { error: "" };
    },
    async LinkPath(request, options) {
      await rpcOf(v1, "CreateSymlink")(
        { source_path: text(request, "source_path"), target_path: text(request, "target_path") },
        options,
      );
      return { error: "" };
    },
    async IsMountPoint(request, options) {
      const { is_symlink } = await rpcOf(v1, "IsSymlink")(path(request), options);
      return { error: "", is_mount_point: is_symlink };
    },
  };
}

/** filesystem v1beta1 (`v1beta1.Filesystem`): the same surface as v1alpha1. */
export const filesystemV1beta1 = filesystemV1alpha1;
