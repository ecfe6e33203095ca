import type { HandlerContext, Message, ServiceHandlers } from "./context.js";
import { flag, hostPath } from "./context.js";

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
