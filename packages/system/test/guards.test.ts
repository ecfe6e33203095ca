import { CsiProxyError } from "@csi-proxy/exec";
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

describe.each(cases)("the $name guard", ({ name, code, guard, make }) => {
  it("accepts an instance", () => {
    expect(guard(make(errors))).toBe(true);
  });

  it("accepts an instance from a second copy of the module, where instanceof fails", () => {
    const foreign = make(copy);
    expect(foreign).not.toBeInstanceOf(make(errors).constructor);
    expect(guard(foreign)).toBe(true);
  });

  it("accepts an object whose prototype carries the brands (a copy with its own exec)", () => {
    const key = `csi-proxy.system.${name}`;
    const brands = { [Symbol.for("csi-proxy.error")]: true, [Symbol.for(key)]: true };
    expect(guard(Object.create(brands))).toBe(true);
  });

  it("rejects a plain CsiProxyError with the same code and name, and a look-alike object", () => {
    const plain = new CsiProxyError("Service msiscsi failed.", { code });
    Object.defineProperty(plain, "name", { value: name });
    expect(guard(plain)).toBe(false);
    expect(guard({ name, code, message: plain.message, serviceName: "msiscsi" })).toBe(false);
    expect(guard(undefined)).toBe(false);
  });

  it("rejects the group's other error classes", () => {
    for (const other of cases.filter((c) => c.name !== name)) {
      expect(guard(other.make(errors))).toBe(false);
    }
  });

  it("operationFailed passes one from another copy through unchanged", () => {
    const foreign = make(copy);
    expect(errors.operationFailed("Start-Service", foreign)).toBe(foreign);
  });
});
