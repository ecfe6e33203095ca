import {
  CsiProxyError,
  isPowerShellError,
  isScript,
  type Params,
  type PowerShell,
  type Script,
} from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { DiskNotFoundError } from "../src/errors.js";
import { createPowerShellDiskHost, diskScripts } from "../src/host.js";
import { powerShellError } from "./fake-host.js";

interface Run {
  script: string;
  params: Params | undefined;
}

/** A PowerShell that records calls and answers from `answer`. */
function fakeShell(answer: (script: Script, params: Params | undefined) => unknown): {
  shell: PowerShell;
  runs: Run[];
} {
  const runs: Run[] = [];
  const shell: PowerShell = {
    mode: "session",
    run: <T>(script: Script, params?: Params): Promise<T> => {
      runs.push({ script: script.name, params });
      // Throws in answer() become rejections, as a real run() reports failures.
      return Promise.resolve().then(() => answer(script, params) as T);
    },
    warmUp: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return { shell, runs };
}

describe("createPowerShellDiskHost", () => {
  it("passes the disk number and flags only as parameters, one script per host call", async () => {
    const { shell, runs } = fakeShell((script) => {
      if (script.name === "disk.get")
        return { number: 4, partitionStyle: 0, isOffline: true, isReadOnly: false, size: 5 };
      if (script.name === "disk.partition") return { initialized: true, created: false };
      return { isOffline: false, isReadOnly: true, readOnlyRefusal: null };
    });
    const host = createPowerShellDiskHost(shell);
    expect(await host.getDisk(4)).toEqual({
      number: 4,
      partitionStyle: 0,
      isOffline: true,
      isReadOnly: false,
      size: 5,
    });
    expect(await host.partitionDisk(4)).toEqual({ initialized: true, created: false });
    expect(await host.setOnline(4, true)).toEqual({
      isOffline: false,
      isReadOnly: true,
      readOnlyRefusal: null,
    });
    expect(await host.setOffline(4)).toEqual({
      isOffline: false,
      isReadOnly: true,
      readOnlyRefusal: null,
    });
    expect(runs).toEqual([
      { script: "disk.get", params: { Number: 4 } },
      { script: "disk.partition", params: { Number: 4 } },
      { script: "disk.setOnline", params: { Number: 4, ClearReadOnly: true } },
      { script: "disk.setOffline", params: { Number: 4 } },
    ]);
  });

  it("hands a refused read-only clear back as a PowerShellError carrying its record", async () => {
    const record = {
      message: "The disk is read only.",
      fullyQualifiedErrorId: "StorageWMI 41002,Set-Disk",
      category: "NotSpecified",
      reason: "CimException",
      targetName: "",
      targetType: "",
      exceptionType: "Microsoft.Management.Infrastructure.CimException",
      exceptionChain: ["Microsoft.Management.Infrastructure.CimException"],
      hResult: -2146233088,
      nativeErrorCode: "Failed",
      statusCode: 1,
      messageId: "StorageWMI 41002",
      errorDetails: null,
      scriptStackTrace: "at <ScriptBlock>",
    };
    const { shell } = fakeShell(() => ({
      isOffline: false,
      isReadOnly: true,
      readOnlyRefusal: record,
    }));
    const state = await createPowerShellDiskHost(shell).setOnline(2, true);
    expect(state).toMatchObject({ isOffline: false, isReadOnly: true });
    expect(isPowerShellError(state.readOnlyRefusal)).toBe(true);
    expect(state.readOnlyRefusal).toMatchObject({
      code: "COMMAND_FAILED",
      scriptName: "disk.setOnline",
      message: "disk.setOnline failed: The disk is read only.",
      record,
    });
  });

  it("refuses an answer it cannot read with PARSE_FAILED", async () => {
    for (const answer of [
      { initialized: true },
      { isOffline: false, isReadOnly: "no", readOnlyRefusal: null },
      { isOffline: false, isReadOnly: true, readOnlyRefusal: { message: 1 } },
    ]) {
      const host = createPowerShellDiskHost(fakeShell(() => answer).shell);
      const call = "initialized" in answer ? host.partitionDisk(1) : host.setOnline(1, true);
      await expect(call).rejects.toMatchObject({ code: "PARSE_FAILED" });
    }
  });

  it.each([
    "CmdletizationQuery_NotFound_Number,Get-Disk",
    "CmdletizationQuery_NotFound_Number,Set-Disk",
    "CmdletizationQuery_NotFound_DiskNumber,New-Partition",
  ])("maps %s to DiskNotFoundError with the PowerShellError as cause", async (id) => {
    const cause = powerShellError(
      id,
      "No MSFT_Disk objects found with property 'Number' equal to '9'.",
    );
    const host = createPowerShellDiskHost(
      fakeShell(() => {
        throw cause;
      }).shell,
    );
    const error = await host.getDisk(9).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DiskNotFoundError);
    expect((error as DiskNotFoundError).code).toBe("NOT_FOUND");
    expect((error as DiskNotFoundError).cause).toBe(cause);
  });

  it("does not map other query misses or failures", async () => {
    for (const cause of [
      powerShellError("CmdletizationQuery_NotFound_UniqueId,Get-Volume"),
      powerShellError("StorageWMI 41003,New-Partition"),
      new CsiProxyError("timed out", { code: "TIMEOUT" }),
    ]) {
      const host = createPowerShellDiskHost(
        fakeShell(() => {
          throw cause;
        }).shell,
      );
      await expect(host.partitionDisk(1)).rejects.toBe(cause);
      await expect(host.setOnline(1, true)).rejects.toBe(cause);
    }
  });

  it("parses the list answers", async () => {
    const { shell } = fakeShell((script) =>
      script.name === "disk.listLocations"
        ? [{ number: 1, location: null }]
        : [{ number: 1, path: "p", serialNumber: null, page83: "x", error: null, isBoot: true }],
    );
    const host = createPowerShellDiskHost(shell);
    expect(await host.listDiskLocations()).toEqual([{ number: 1, location: null }]);
    expect(await host.listDiskIds()).toEqual([
      { number: 1, path: "p", serialNumber: null, isSystemDisk: true, page83: "x", error: null },
    ]);
  });
});

describe("diskScripts", () => {
  const scripts = Object.values(diskScripts);

  it("are constant ps`` scripts with distinct names", () => {
    expect(scripts.every((s) => isScript(s))).toBe(true);
    expect(new Set(scripts.map((s) => s.name)).size).toBe(scripts.length);
  });

  it("read values only through their param() block", () => {
    for (const { text } of scripts) {
      expect(text).not.toMatch(/\$env:/i);
      expect(text).not.toMatch(/Invoke-Expression|iex\s|\[scriptblock\]::Create/i);
    }
  });

  it("avoid syntax Windows PowerShell 5.1 lacks", () => {
    for (const { name, text } of scripts) {
      const powershell = text.replace(/@'[\s\S]*?\n'@/g, "");
      for (const banned of [
        /\?\?/,
        /\?\./,
        /&&/,
        /\|\|/,
        /-AsArray/,
        /-Parallel/,
        /-AsHashtable/,
        / \? .+ : /,
      ]) {
        expect({ name, match: banned.test(powershell) }).toEqual({ name, match: false });
      }
    }
  });
});
