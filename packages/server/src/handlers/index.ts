import type { ServedApi } from "../endpoints.js";
import type { HandlerContext, ServiceHandlers } from "./context.js";
import { diskV1 } from "./disk.js";
import { filesystemV1, filesystemV2alpha1 } from "./filesystem.js";
import { iscsiV1alpha2 } from "./iscsi.js";
import { smbV1 } from "./smb.js";
import { systemV1alpha1 } from "./system.js";
import { volumeV1, volumeV2alpha1 } from "./volume.js";

const builders: Readonly<Record<string, (context: HandlerContext) => ServiceHandlers>> = {
  "disk-v1": diskV1,
  "filesystem-v1": filesystemV1,
  "filesystem-v2alpha1": filesystemV2alpha1,
  "iscsi-v1alpha2": iscsiV1alpha2,
  "smb-v1": smbV1,
  "system-v1alpha1": systemV1alpha1,
  "volume-v1": volumeV1,
  "volume-v2alpha1": volumeV2alpha1,
};

/** The handlers of a served group-version. */
export function handlersFor(api: ServedApi, context: HandlerContext): ServiceHandlers {
  const build = builders[`${api.group}-${api.version}`];
  if (build === undefined) throw new Error(`No handlers for ${api.endpoint}.`);
  return build(context);
}
