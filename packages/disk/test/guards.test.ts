import { CsiProxyError } from "@csi-proxy/exec";
import { describeErrorGuards } from "@csi-proxy/test-utils";
import * as errors from "../src/errors.js";
import { isDiskNotFoundError, isDiskReadOnlyError } from "../src/index.js";

// A second evaluation of the module stands in for a duplicate install: its classes are distinct.
const copyUrl = "../src/errors.js?copy";
const copy = (await import(copyUrl)) as typeof errors;
const plain = (code: string) => new CsiProxyError("Disk 3 failed.", { code: code as never });

describeErrorGuards([
  {
    name: "DiskNotFoundError",
    key: "csi-proxy.disk.DiskNotFoundError",
    code: "NOT_FOUND",
    guard: isDiskNotFoundError,
    make: () => new errors.DiskNotFoundError(3),
    makeCopy: () => new copy.DiskNotFoundError(3),
    plain,
  },
  {
    name: "DiskReadOnlyError",
    // The key of the first release of this guard, kept so older copies stay recognised.
    key: "csi-proxy.disk.read-only-error",
    code: "FAILED_PRECONDITION",
    guard: isDiskReadOnlyError,
    make: () => new errors.DiskReadOnlyError(3),
    makeCopy: () => new copy.DiskReadOnlyError(3),
    plain,
  },
]);
