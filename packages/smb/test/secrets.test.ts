import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { Smb, type NewSmbGlobalMappingRequest } from "../src/index.js";
import { FakeSmbHost, MemoryLinkHost, psError } from "./fakes.js";

const passwords = ["Tr0ub4dor&3-horse", 'it\'s "quoted" $(whoami) `n'];
const staging = "C:\\var\\lib\\kubelet\\pv\\globalmount";

function seen(value: unknown): string {
  return `${inspect(value, { depth: null, showHidden: true })}\n${String(value)}`;
}

async function thrown(smb: Smb, request: NewSmbGlobalMappingRequest): Promise<unknown> {
  try {
    await smb.newSmbGlobalMapping(request);
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe.each(passwords)("the password %j never shows", (password) => {
  const request = { remotePath: "\\\\srv\\share", username: "CONTOSO\\svc", password };

  it("in a successful call's response", async () => {
    const smb = new Smb({ host: new FakeSmbHost(), links: new MemoryLinkHost() });
    expect(seen(await smb.newSmbGlobalMapping(request))).not.toContain(password);
  });

  it("in validation errors", async () => {
    const smb = new Smb({ host: new FakeSmbHost(), links: new MemoryLinkHost() });
    for (const bad of [
      { remotePath: "\\\\srv\\share", password },
      { remotePath: "\\\\srv", username: "u", password },
      { remotePath: "\\\\srv\\share", username: "u", password, localPath: "relative" },
    ]) {
      const error = await thrown(smb, bad);
      expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
      expect(seen(error)).not.toContain(password);
    }
  });

  it("in host failures that quote it, in the message, record or cause chain", async () => {
    const leaks: Error[] = [
      new Error(`could not log on with ${password}`),
      psError("Windows System Error 1219,New-SmbGlobalMapping", `password ${password} rejected`),
      Object.assign(new Error("outer"), { cause: { detail: [`x${password}x`] } }),
      Object.assign(new Error("outer"), { cause: new Error("inner", { cause: password }) }),
    ];
    for (const leak of leaks) {
      const host = new FakeSmbHost();
      host.failures.set("ensureMapping", leak);
      const error = await thrown(new Smb({ host, links: new MemoryLinkHost() }), request);
      expect(seen(error)).not.toContain(password);
    }
  });

  it("keeps the mapped code when it withholds details", async () => {
    const host = new FakeSmbHost();
    host.failures.set(
      "ensureMapping",
      psError("Windows System Error 1219,New-SmbGlobalMapping", `user with ${password}`),
    );
    const error = await thrown(new Smb({ host, links: new MemoryLinkHost() }), request);
    expect(error).toMatchObject({ code: "CONFLICT" });
    expect((error as Error).message).toMatch(/1219/);
    expect((error as Error).message).toMatch(/details withheld/);
  });

  it("in failures of the ensure call that quote it and of the link host", async () => {
    const host = new FakeSmbHost();
    host.failures.set("ensureMapping", new Error(`inspect saw ${password}`));
    const smb = new Smb({ host, links: new MemoryLinkHost() });
    expect(seen(await thrown(smb, request))).not.toContain(password);

    const links = new MemoryLinkHost();
    links.failure = Object.assign(new Error(`EPERM ${password}`), { code: "EPERM" });
    const linked = new Smb({ host: new FakeSmbHost(), links, pathStyle: "windows" });
    const error = await thrown(linked, { ...request, localPath: staging });
    expect(error).toMatchObject({ code: "PERMISSION_DENIED" });
    expect(seen(error)).not.toContain(password);
  });

  it("leaves an error that does not contain it untouched, cause and all", async () => {
    const host = new FakeSmbHost();
    const original = psError("Windows System Error 67,New-SmbGlobalMapping");
    host.failures.set("ensureMapping", original);
    const error = await thrown(new Smb({ host, links: new MemoryLinkHost() }), request);
    expect(error).toMatchObject({ code: "NOT_FOUND", cause: original });
  });
});
