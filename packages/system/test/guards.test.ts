import { CsiProxyError } from "@csi-proxy/exec";
import { describeErrorGuards } from "@csi-proxy/test-utils";
import { describe, expect, it } from "vitest";
import { ServiceStatus } from "../src/enums.js";
import * as errors from "../src/errors.js";
import {
  isServiceHasDependentsError,
  isServiceNotFoundError,
  isServiceStateError,
  isServiceTimeoutError,
} from "../src/index.js";

// A second evaluation of the module stands in for a duplicate install: its classes are distinct.
const copyUrl = "../src/errors.js?copy";
const copy = (await import(copyUrl)) as typeof errors;

const cases = [
  {
    name: "ServiceNotFoundError",
    code: "NOT_FOUND",
    guard: isServiceNotFoundError,
    make: (m: typeof errors) => new m.ServiceNotFoundError("msiscsi"),
  },
  {
    name: "ServiceHasDependentsError",
    code: "FAILED_PRECONDITION",
    guard: isServiceHasDependentsError,
    make: (m: typeof errors) => new m.ServiceHasDependentsError("lanmanworkstation"),
  },
  {
    name: "ServiceTimeoutError",
    code: "TIMEOUT",
    guard: isServiceTimeoutError,
    make: (m: typeof errors) =>
      new m.ServiceTimeoutError({
        serviceName: "msiscsi",
        expected: ServiceStatus.RUNNING,
        lastStatus: ServiceStatus.START_PENDING,
        timeoutMs: 1000,
      }),
  },
  {
    name: "ServiceStateError",
    code: "FAILED_PRECONDITION",
    guard: isServiceStateError,
    make: (m: typeof errors) =>
      new m.ServiceStateError(
        "msiscsi",
        ServiceStatus.STOPPED,
        "is disabled.",
        "FAILED_PRECONDITION",
      ),
  },
] as const;

describeErrorGuards(
  cases.map((c) => ({
    name: c.name,
    key: `csi-proxy.system.${c.name}`,
    code: c.code,
    guard: c.guard,
    make: () => c.make(errors),
    makeCopy: () => c.make(copy),
    plain: (code: string) => new CsiProxyError("Service msiscsi failed.", { code: code as never }),
  })),
);

describe.each(cases)("a $name from another copy", ({ make }) => {
  it("passes through operationFailed unchanged", () => {
    const foreign = make(copy);
    expect(errors.operationFailed("Start-Service", foreign)).toBe(foreign);
  });
});
