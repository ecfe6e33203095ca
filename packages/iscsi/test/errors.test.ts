import { CsiProxyError, isCsiProxyError, PowerShellError } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { IscsiError } from "../src/errors.js";
import { FakeIscsiHost, powerShellError } from "./fake-host.js";
import { failure, setup, targetPortal } from "./helpers.js";

describe("initiator failures map to typed codes by their error id, never by message", () => {
  it.each([
    ["HRESULT 0xefff0003,New-IscsiTargetPortal", "FAILED_PRECONDITION", "PORTAL_UNREACHABLE"],
    ["HRESULT 0xefff005f,New-IscsiTargetPortal", "FAILED_PRECONDITION", "PORTAL_UNREACHABLE"],
    ["HRESULT 0xefff0009,New-IscsiTargetPortal", "PERMISSION_DENIED", "AUTHENTICATION_FAILED"],
    ["HRESULT 0xefff000a,New-IscsiTargetPortal", "PERMISSION_DENIED", "AUTHORIZATION_FAILED"],
    ["HRESULT 0xefff0029,New-IscsiTargetPortal", "NOT_FOUND", "TARGET_NOT_FOUND"],
    ["HRESULT 0xefff0043,New-IscsiTargetPortal", "NOT_FOUND", "PORTAL_NOT_FOUND"],
    ["HRESULT 0xEFFF003E,New-IscsiTargetPortal", "FAILED_PRECONDITION", "SERVICE_NOT_RUNNING"],
    ["HRESULT 0xefff003f,New-IscsiTargetPortal", "ALREADY_EXISTS", "ALREADY_CONNECTED"],
    ["HRESULT 0xafff0048,New-IscsiTargetPortal", "INVALID_ARGUMENT", "INVALID_CHAP_CREDENTIALS"],
    ["HRESULT 0xefff001f,New-IscsiTargetPortal", "CONFLICT", "SESSION_BUSY"],
    ["HRESULT 0xefff0001,New-IscsiTargetPortal", "COMMAND_FAILED", "OTHER"],
    [
      "CmdletizationQuery_NotFound_TargetPortalAddress,Get-IscsiTargetPortal",
      "COMMAND_FAILED",
      "OTHER",
    ],
  ])("%s → %s / %s", async (errorId, code, reason) => {
    const { host, iscsi } = setup();
    const cause = powerShellError(errorId, "Localised text that must not matter.");
    host.fail("addTargetPortal", cause);
    const error = await failure(iscsi.addTargetPortal({ targetPortal }));
    expect(error).toBeInstanceOf(IscsiError);
    expect(error).toMatchObject({ code, reason, name: "IscsiError" });
    expect(error.cause).toBe(cause);
    expect(error.message).toMatch(/^addTargetPortal failed: /);
  });

  it("the same English message without the id stays COMMAND_FAILED", async () => {
    const { host, iscsi } = setup();
    host.fail("addTargetPortal", powerShellError("NativeCommandError", "Authentication Failure."));
    expect(await failure(iscsi.addTargetPortal({ targetPortal }))).toMatchObject({
      code: "COMMAND_FAILED",
      reason: "OTHER",
      hresult: undefined,
    });
  });

  it("keeps the code of failures that are not initiator errors (timeouts, aborts)", async () => {
    const { host, iscsi } = setup();
    const timeout = new PowerShellError("timed out", {
      code: "TIMEOUT",
      scriptName: "iscsi.connect",
      mode: "session",
      durationMs: 5,
    });
    host.fail("listTargetPortals", timeout);
    expect(await failure(iscsi.listTargetPortals())).toMatchObject({
      code: "TIMEOUT",
      cause: timeout,
    });
    host.fail("listTargetPortals", new Error("boom"));
    expect(await failure(iscsi.listTargetPortals())).toMatchObject({ code: "COMMAND_FAILED" });
  });

  it("errors are CsiProxyErrors recognised by the brand", async () => {
    const host = new FakeIscsiHost();
    host.fail("listTargetPortals", new CsiProxyError("x", { code: "PARSE_FAILED" }));
    const { Iscsi } = await import("../src/iscsi.js");
    const error: unknown = await new Iscsi({ host }).listTargetPortals().catch((e: unknown) => e);
    expect(isCsiProxyError(error)).toBe(true);
    expect(error).toMatchObject({ code: "PARSE_FAILED" });
  });
});
