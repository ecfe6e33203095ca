import { CsiProxyError } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import * as errors from "../src/errors.js";
import { isSupportedSizeUnavailableError } from "../src/index.js";

// A second evaluation of the module stands in for a duplicate install: its classes are distinct.
const copyUrl = "../src/errors.js?copy";
const copy = (await import(copyUrl)) as typeof errors;
const make = (m: typeof errors) => new m.SupportedSizeUnavailableError("\\\\?\\Volume{1}\\");

describe("isSupportedSizeUnavailableError", () => {
  it("accepts an instance", () => {
    expect(isSupportedSizeUnavailableError(make(errors))).toBe(true);
  });

  it("accepts an instance from a second copy of the module, where instanceof fails", () => {
    const foreign = make(copy);
    expect(foreign).not.toBeInstanceOf(errors.SupportedSizeUnavailableError);
    expect(isSupportedSizeUnavailableError(foreign)).toBe(true);
  });

  it("accepts an object whose prototype carries the brands (a copy with its own exec)", () => {
    const brands = {
      [Symbol.for("csi-proxy.error")]: true,
      [Symbol.for("csi-proxy.volume.supported-size-error")]: true,
    };
    expect(isSupportedSizeUnavailableError(Object.create(brands))).toBe(true);
  });

  it("rejects a plain CsiProxyError with the same code and name, and a look-alike object", () => {
    const plain = new CsiProxyError("no size", { code: "FAILED_PRECONDITION" });
    Object.defineProperty(plain, "name", { value: "SupportedSizeUnavailableError" });
    expect(isSupportedSizeUnavailableError(plain)).toBe(false);
    const lookAlike = { name: plain.name, code: plain.code, message: "x", volumeId: "v" };
    expect(isSupportedSizeUnavailableError(lookAlike)).toBe(false);
    expect(isSupportedSizeUnavailableError(null)).toBe(false);
  });
});
