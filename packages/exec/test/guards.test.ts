import { describeErrorGuards } from "@csi-proxy/test-utils";
import { describe, expect, it } from "vitest";
import * as errors from "../src/powershell-error.js";
import {
  brandedGuard,
  CsiProxyError,
  isPowerShellError,
  type CsiProxyErrorCode,
} from "../src/index.js";

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

describeErrorGuards([
  {
    name: "PowerShellError",
    key: "csi-proxy.exec.PowerShellError",
    code: "COMMAND_FAILED",
    guard: isPowerShellError,
    make: () => make(errors),
    makeCopy: () => make(copy),
    plain: (code) => new CsiProxyError("boom", { code: code as CsiProxyErrorCode }),
  },
]);

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
