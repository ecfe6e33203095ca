import { CsiProxyError } from "@csi-proxy/exec";
import { describeErrorGuards } from "@csi-proxy/test-utils";
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

describeErrorGuards([
  {
    name: "IscsiError",
    key: "csi-proxy.iscsi.IscsiError",
    code: "PERMISSION_DENIED",
    guard: isIscsiError,
    make: () => make(errors),
    makeCopy: () => make(copy),
    plain: (code) => new CsiProxyError("denied", { code: code as never }),
  },
]);

describe("an IscsiError from another copy", () => {
  it("keeps its reason and status through withoutSecrets", () => {
    const redacted = errors.withoutSecrets(make(copy), ["s3cret-chap-secret"]);
    expect(isIscsiError(redacted)).toBe(true);
    expect(redacted).toMatchObject({ reason: "AUTHENTICATION_FAILED", hresult: 0xefff0009 });
    expect((redacted as Error).message).not.toContain("s3cret-chap-secret");
  });
});
