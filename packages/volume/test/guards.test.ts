import { CsiProxyError } from "@csi-proxy/exec";
import { describeErrorGuards } from "@csi-proxy/test-utils";
import * as errors from "../src/errors.js";
import { isSupportedSizeUnavailableError } from "../src/index.js";

// A second evaluation of the module stands in for a duplicate install: its classes are distinct.
const copyUrl = "../src/errors.js?copy";
const copy = (await import(copyUrl)) as typeof errors;
const volumeId = "\\\\?\\Volume{1}\\";

describeErrorGuards([
  {
    name: "SupportedSizeUnavailableError",
    // The key of the first release of this guard, kept so older copies stay recognised.
    key: "csi-proxy.volume.supported-size-error",
    code: "FAILED_PRECONDITION",
    guard: isSupportedSizeUnavailableError,
    make: () => new errors.SupportedSizeUnavailableError(volumeId),
    makeCopy: () => new copy.SupportedSizeUnavailableError(volumeId),
    plain: (code) => new CsiProxyError("no size", { code: code as never }),
  },
]);
