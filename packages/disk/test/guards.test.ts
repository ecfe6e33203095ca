import { CsiProxyError } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import * as errors from "../src/errors.js";
import { isDiskNotFoundError, isDiskReadOnlyError } from "../src/index.js";

// A second evaluation of the module stands in for a duplicate install: its classes are distinct.
const copyUrl = "../src/errors.js?copy";
const copy = (await import(copyUrl)) as typeof errors;

const cases = [
  {
    name: "DiskNotFoundError",
    key: "csi-proxy.disk.DiskNotFoundError",
    code: "NOT_FOUND",
    guard: isDiskNotFoundError,
    make: (m: typeof errors) => new m.DiskNotFoundError(3),
  },
  {
    name: "DiskReadOnlyError",
    key: "csi-proxy.disk.read-only-error",
    code: "FAILED_PRECONDITION",
    guard: isDiskReadOnlyError,
    make: (m: typeof errors) => new m.DiskReadOnlyError(3),
  },
] as const;

describe.each(cases)("the $name guard", ({ name, key, code, guard, make }) => {
  it("accepts an instance", () => {
    expect(guard(make(errors))).toBe(true);
  });

  it("accepts an instance from a second copy of the module, where instanceof fails", () => {
    const foreign = make(copy);
    expect(foreign).not.toBeInstanceOf(make(errors).constructor);
    expect(guard(foreign)).toBe(true);
  });

  it("accepts an object whose prototype carries the brands (a copy with its own exec)", () => {
    const brands = { [Symbol.for("csi-proxy.error")]: true, [Symbol.for(key)]: true };
    expect(guard(Object.create(brands))).toBe(true);
  });

  it("rejects a plain CsiProxyError with the same code and name, and a look-alike object", () => {
    const plain = new CsiProxyError("Disk 3 was not found.", { code });
    Object.defineProperty(plain, "name", { value: name });
    expect(guard(plain)).toBe(false);
    expect(guard({ name, code, message: plain.message, diskNumber: 3 })).toBe(false);
    expect(guard(undefined)).toBe(false);
  });

  it("rejects the group's other error classes", () => {
    for (const other of cases.filter((c) => c.name !== name)) {
      expect(guard(other.make(errors))).toBe(false);
    }
  });
});
