import { CsiProxyError } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import * as errors from "../src/errors.js";
import { isIscsiError } from "../src/index.js";

// A second evaluation of the module stands in for a duplicate install: its classes are distinct.
const copyUrl = "../src/errors.js?copy";
const copy = (await import(copyUrl)) as typeof errors;
const make = (m: typeof errors) =>
  new m.IscsiError("Connect failed: CHAP secret s3cret-chap-secret was refused", {
    code: "PERMISSION_DENIED",
    reason: "AUTHENTICATION_FAILED",
    hresult: 0xefff0009,
  });

describe("isIscsiError", () => {
  it("accepts an instance", () => {
    expect(isIscsiError(make(errors))).toBe(true);
  });

  it("accepts an instance from a second copy of the module, where instanceof fails", () => {
    const foreign = make(copy);
    expect(foreign).not.toBeInstanceOf(errors.IscsiError);
    expect(isIscsiError(foreign)).toBe(true);
  });

  it("accepts an object whose prototype carries the brands (a copy with its own exec)", () => {
    const brands = {
      [Symbol.for("csi-proxy.error")]: true,
      [Symbol.for("csi-proxy.iscsi.IscsiError")]: true,
    };
    expect(isIscsiError(Object.create(brands))).toBe(true);
  });

  it("rejects a plain CsiProxyError with the same code and name, and a look-alike object", () => {
    const plain = new CsiProxyError("denied", { code: "PERMISSION_DENIED" });
    Object.defineProperty(plain, "name", { value: "IscsiError" });
    expect(isIscsiError(plain)).toBe(false);
    const lookAlike = { name: plain.name, code: plain.code, message: "x", reason: "OTHER" };
    expect(isIscsiError(lookAlike)).toBe(false);
    expect(isIscsiError("IscsiError")).toBe(false);
  });

  it("withoutSecrets keeps the reason and status of an IscsiError from another copy", () => {
    const redacted = errors.withoutSecrets(make(copy), ["s3cret-chap-secret"]);
    expect(isIscsiError(redacted)).toBe(true);
    expect(redacted).toMatchObject({ reason: "AUTHENTICATION_FAILED", hresult: 0xefff0009 });
    expect((redacted as Error).message).not.toContain("s3cret-chap-secret");
  });
});
