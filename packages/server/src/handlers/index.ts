import type { ServedApi } from "../endpoints.js";
import type { HandlerContext, ServiceHandlers } from "./context.js";
import { diskV1, diskV1alpha1, diskV1beta1, diskV1beta2, diskV1beta3 } from "./disk.js";
import {
  filesystemV1,
  filesystemV1alpha1,
  filesystemV1beta1,
  filesystemV1beta2,
  filesystemV2alpha1,
} from "./filesystem.js";
import { iscsiV1alpha1, iscsiV1alpha2 } from "./iscsi.js";
import { smbV1, smbV1alpha1, smbV1beta1, smbV1beta2 } from "./smb.js";
import { systemV1alpha1 } from "./system.js";
import {
  volumeV1,
  volumeV1alpha1,
  volumeV1beta1,
  volumeV1beta2,
  volumeV1beta3,
  volumeV2alpha1,
} from "./volume.js";

const builders: Readonly<Record<string, (context: HandlerContext) => ServiceHandlers>> = {
  "disk-v1alpha1": diskV1alpha1,
  "disk-v1beta1": diskV1beta1,
  "disk-v1beta2": diskV1beta2,
  "disk-v1beta3": diskV1beta3,
  "disk-v1": diskV1,
  "filesystem-v1alpha1": filesystemV1alpha1,
  "filesystem-v1beta1": filesystemV1beta1,
  "filesystem-v1beta2": filesystemV1beta2,
  "filesystem-v1": filesystemV1,
  "filesystem-v2alpha1": filesystemV2alpha1,
  "iscsi-v1alpha1": iscsiV1alpha1,
  "iscsi-v1alpha2": iscsiV1alpha2,
  "smb-v1alpha1": smbV1alpha1,
  "smb-v1beta1": smbV1beta1,
  "smb-v1beta2": smbV1beta2,
  "smb-v1": smbV1,
  "system-v1alpha1": systemV1alpha1,
  "volume-v1alpha1": volumeV1alpha1,
  "volume-v1beta1": volumeV1beta1,
  "volume-v1beta2": volumeV1beta2,
  "volume-v1beta3": volumeV1beta3,
  "volume-v1": volumeV1,
  "volume-v2alpha1": volumeV2alpha1,
};

/** The handlers of a served group-version. */
export function handlersFor(api: ServedApi, context: HandlerContext): ServiceHandlers {
  const build = builders[`${api.group}-${api.version}`];
  if (build === undefined) throw new Error(`No handlers for ${api.endpoint}.`);
  return build(context);
}
