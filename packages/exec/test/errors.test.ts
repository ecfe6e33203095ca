import { describe, expect, it } from "vitest";
import {
  CsiProxyError,
  failureReason,
  isCsiProxyError,
  parseErrorId,
  PowerShellError,
} from "../src/index.js";

describe("CsiProxyError", () => {
  it("carries a code, a cause and a name on the prototype", () => {
    const cause = new Error("inner");
    const error = new CsiProxyError("outer", { code: "NOT_FOUND", cause });
    expect(error.code).toBe("NOT_FOUND");
    expect(error.cause).toBe(cause);
    expect(error.name).toBe("CsiProxyError");
    expect(Object.keys(error)).not.toContain("name");
    expect(error).toBeInstanceOf(Error);
  });

  it("is recognised by the symbol guard, even from another copy of the package", () => {
    expect(isCsiProxyError(new CsiProxyError("x", { code: "TIMEOUT" }))).toBe(true);
    const foreign = Object.create({ [Symbol.for("csi-proxy.error")]: true }) as object;
    expect(isCsiProxyError(foreign)).toBe(true);
    expect(isCsiProxyError(new Error("plain"))).toBe(false);
    expect(isCsiProxyError(undefined)).toBe(false);
  });

  it("PowerShellError is a CsiProxyError with diagnostic fields", () => {
    const error = new PowerShellError("boom", {
      code: "TIMEOUT",
      scriptName: "s",
      mode: "spawn",
      durationMs: 5,
    });
    expect(isCsiProxyError(error)).toBe(true);
    expect(error.name).toBe("PowerShellError");
    expect(error.timedOut).toBe(true);
    expect(error.stderr).toBe("");
  });
});

describe("parseErrorId", () => {
  it.each([
    [
      "StorageWMI 42002,Add-PartitionAccessPath",
      { kind: "StorageWMI", code: 42002, command: "Add-PartitionAccessPath" },
    ],
    [
      "Windows System Error 1219,New-SmbGlobalMapping",
      { kind: "WindowsSystemError", code: 1219, command: "New-SmbGlobalMapping" },
    ],
    [
      "HRESULT 0x80070005,New-SmbGlobalMapping",
      { kind: "HRESULT", code: 0x80070005, command: "New-SmbGlobalMapping" },
    ],
    [
      "CmdletizationQuery_NotFound_Number,Get-Disk",
      { kind: "NotFound", code: undefined, command: "Get-Disk" },
    ],
    [
      "PathNotFound,Microsoft.PowerShell.Commands.GetItemCommand",
      { kind: "Other", code: undefined, command: "Microsoft.PowerShell.Commands.GetItemCommand" },
    ],
    ["RuntimeException", { kind: "Other", code: undefined, command: undefined }],
  ])("%s", (id, expected) => {
    expect(parseErrorId(id)).toEqual(expected);
  });
});

describe("failureReason", () => {
  const failed = new PowerShellError("disk.get failed: General failure.", {
    code: "COMMAND_FAILED",
    scriptName: "disk.get",
    mode: "session",
    durationMs: 3,
  });

  it("drops a script's own prefix so a group's message says failed once", () => {
    expect(failureReason(failed)).toBe("General failure.");
    expect(`getDiskStats(disk 1) failed: ${failureReason(failed)}`).toBe(
      "getDiskStats(disk 1) failed: General failure.",
    );
  });

  it("keeps every other message whole", () => {
    const timedOut = new PowerShellError("disk.get timed out after 1000 ms.", {
      code: "TIMEOUT",
      scriptName: "disk.get",
      mode: "session",
      durationMs: 1000,
    });
    expect(failureReason(timedOut)).toBe("disk.get timed out after 1000 ms.");
    expect(failureReason(new Error("other.get failed: x"))).toBe("other.get failed: x");
    expect(failureReason("plain")).toBe("plain");
  });
});
