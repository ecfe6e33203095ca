import { describe, expect, it } from "vitest";
import { isCsiProxyError, Smb } from "../src/index.js";
import { FakeSmbHost, MemoryLinkHost, psError } from "./fakes.js";

async function failure(fullyQualifiedErrorId: string, message?: string) {
  const host = new FakeSmbHost();
  host.failures.set("ensureMapping", psError(fullyQualifiedErrorId, message));
  const smb = new Smb({ host, links: new MemoryLinkHost(), pathStyle: "windows" });
  try {
    await smb.newSmbGlobalMapping({
      remotePath: "\\\\srv\\share",
      username: "u",
      password: "correct horse battery",
    });
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("New-SmbGlobalMapping failures are mapped by error id", () => {
  it.each([
    ["Windows System Error 1219,New-SmbGlobalMapping", "CONFLICT", /another user name/],
    ["HRESULT 0x800704C3,New-SmbGlobalMapping", "CONFLICT", /1219/],
    ["Windows System Error 85,New-SmbGlobalMapping", "CONFLICT", /85/],
    ["Windows System Error 5,New-SmbGlobalMapping", "PERMISSION_DENIED", /access is denied/],
    ["HRESULT 0x80070005,New-SmbGlobalMapping", "PERMISSION_DENIED", /Windows error 5\b/],
    ["Windows System Error 65,New-SmbGlobalMapping", "PERMISSION_DENIED", /65/],
    ["Windows System Error 1326,New-SmbGlobalMapping", "PERMISSION_DENIED", /1326/],
    ["Windows System Error 67,New-SmbGlobalMapping", "NOT_FOUND", /network name/],
    ["Windows System Error 53,New-SmbGlobalMapping", "NOT_FOUND", /network path/],
  ])("%s → %s", async (id, code, message) => {
    const error = await failure(id);
    expect(isCsiProxyError(error)).toBe(true);
    expect(error).toMatchObject({ code });
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toContain("\\\\srv\\share");
    expect((error as Error).cause).toMatchObject({ record: { fullyQualifiedErrorId: id } });
  });

  it.each([
    ["Windows System Error 5", "PERMISSION_DENIED"],
    ["Windows System Error 1326", "PERMISSION_DENIED"],
    ["Windows System Error 1219", "CONFLICT"],
    ["Windows System Error 67", "NOT_FOUND"],
  ])(
    "maps %s from Invoke-CimMethod (a mapping without credentials) the same way, naming the computer account",
    async (head, code) => {
      const id = `${head},Microsoft.Management.Infrastructure.CimCmdlets.InvokeCimMethodCommand`;
      const host = new FakeSmbHost();
      host.failures.set("ensureMapping", psError(id));
      const smb = new Smb({ host, links: new MemoryLinkHost(), pathStyle: "windows" });
      const error = await smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share" }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toMatchObject({ code, cause: { record: { fullyQualifiedErrorId: id } } });
      expect((error as Error).message).toMatch(
        /without credentials \(as this node's computer account\)/,
      );
    },
  );

  it("does not guess from English messages: an unknown id keeps the original error", async () => {
    const original = psError(
      "HRESULT 0x80041001,New-SmbGlobalMapping",
      "Access is denied. Multiple connections to a server (1219)",
    );
    const host = new FakeSmbHost();
    host.failures.set("ensureMapping", original);
    const smb = new Smb({ host, links: new MemoryLinkHost(), pathStyle: "windows" });
    await expect(smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share" })).rejects.toBe(original);
  });

  it("maps failures of the ensure (e.g. its Test-Path), remove and list calls too", async () => {
    const host = new FakeSmbHost();
    const smb = new Smb({ host, links: new MemoryLinkHost(), pathStyle: "windows" });
    host.failures.set("ensureMapping", psError("Windows System Error 53,Test-Path"));
    await expect(smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    host.failures.set("removeMapping", psError("Windows System Error 5,Remove-SmbGlobalMapping"));
    await expect(
      smb.removeSmbGlobalMapping({ remotePath: "\\\\srv\\share" }),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    host.failures.set("listMappings", psError("HRESULT 0x80070005,Get-SmbGlobalMapping"));
    await expect(smb.listSmbGlobalMappings()).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
  });

  it("passes errors without a PowerShell record through unchanged", async () => {
    const host = new FakeSmbHost();
    const original = new Error("host went away");
    host.failures.set("listMappings", original);
    const smb = new Smb({ host, links: new MemoryLinkHost() });
    await expect(smb.listSmbGlobalMappings()).rejects.toBe(original);
  });
});

describe("listSmbGlobalMappings checks its request before the host", () => {
  it.each([null, 7, "all", []])("%j is INVALID_ARGUMENT and lists nothing", async (bad) => {
    const host = new FakeSmbHost();
    const smb = new Smb({ host, links: new MemoryLinkHost() });
    await expect(smb.listSmbGlobalMappings(bad as never)).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    expect(host.events).toEqual([]);
  });
});
