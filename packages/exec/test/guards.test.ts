import { describe, expect, it } from "vitest";
import * as errors from "../src/powershell-error.js";
import { brandedGuard, CsiProxyError, isPowerShellError } from "../src/index.js";

// A second evaluation of the module stands in for a duplicate install: its classes are distinct.
const copyUrl = "../src/powershell-error.js?copy";
const copy = (await import(copyUrl)) as typeof errors;
const make = (m: typeof errors) =>
  new m.PowerShellError("boom", {
    code: "COMMAND_FAILED",
    scriptName: "s",
    mode: "spawn",
    durationMs: 1,
  });

describe("isPowerShellError", () => {
  it("accepts an instance", () => {
    expect(isPowerShellError(make(errors))).toBe(true);
  });

  it("accepts an instance from a second copy of the module, where instanceof fails", () => {
    const foreign = make(copy);
    expect(foreign).not.toBeInstanceOf(errors.PowerShellError);
    expect(isPowerShellError(foreign)).toBe(true);
  });

  it("accepts an object whose prototype carries the brands (another copy of the package)", () => {
    const brands = {
      [Symbol.for("csi-proxy.error")]: true,
      [Symbol.for("csi-proxy.exec.PowerShellError")]: true,
    };
    expect(isPowerShellError(Object.create(brands))).toBe(true);
  });

  it("rejects a plain CsiProxyError with the same code and name, and a look-alike object", () => {
    const plain = new CsiProxyError("boom", { code: "COMMAND_FAILED" });
    Object.defineProperty(plain, "name", { value: "PowerShellError" });
    expect(isPowerShellError(plain)).toBe(false);
    const lookAlike = { name: plain.name, code: plain.code, message: "boom", record: undefined };
    expect(isPowerShellError(lookAlike)).toBe(false);
    expect(isPowerShellError(undefined)).toBe(false);
  });
});

describe("brandedGuard", () => {
  class QuotaError extends CsiProxyError {}
  const isQuotaError = brandedGuard(QuotaError, "csi-proxy.test.QuotaError");

  it("brands the prototype with a non-enumerable symbol, not each instance", () => {
    const error = new QuotaError("full", { code: "FAILED_PRECONDITION" });
    expect(Object.getOwnPropertySymbols(error)).toEqual([]);
    expect(Object.keys(QuotaError.prototype)).toEqual([]);
    expect(isQuotaError(error)).toBe(true);
  });

  it("requires the CsiProxyError brand too, so a stray symbol alone is not enough", () => {
    const strayBrand = Object.create({ [Symbol.for("csi-proxy.test.QuotaError")]: true }) as object;
    expect(isQuotaError(strayBrand)).toBe(false);
  });
});
