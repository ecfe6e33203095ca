import { describe, expect, it } from "vitest";
import { Smb } from "../src/index.js";
import { FakeSmbHost, MemoryLinkHost } from "./fakes.js";

const staging = "C:\\var\\lib\\kubelet\\plugins\\smb\\pv-1\\globalmount";

function setup(
  mappings: ConstructorParameters<typeof FakeSmbHost>[0] = {},
  layout: ConstructorParameters<typeof MemoryLinkHost>[0] = {},
) {
  const host = new FakeSmbHost(mappings);
  const links = new MemoryLinkHost(layout);
  const smb = new Smb({ host, links, pathStyle: "windows" });
  return { host, links, smb };
}

describe("newSmbGlobalMapping", () => {
  it("creates the share root's mapping and links localPath to the full remote path", async () => {
    const { host, links, smb } = setup();
    const result = await smb.newSmbGlobalMapping({
      remotePath: "//FileServer/Data/pv-1/",
      localPath: staging,
      username: "CONTOSO\\svc",
      password: "pw-1",
    });
    expect(result).toEqual({ mapping: "created", link: "created" });
    expect(host.events).toEqual(["ensure \\\\fileserver\\data", "create \\\\fileserver\\data"]);
    expect(links.calls).toEqual([
      `read ${staging}`,
      `link ${staging} -> \\\\FileServer\\Data\\pv-1\\`,
    ]);
    expect(host.ensureRequests[0]).toMatchObject({
      shareRoot: "\\\\fileserver\\data",
      username: "CONTOSO\\svc",
      password: "pw-1",
    });
  });

  it("reuses a valid OK mapping, also for a sub-path of the share", async () => {
    const { host, smb } = setup({ "\\\\srv\\share": { status: "OK", pathValid: true } });
    expect(await smb.newSmbGlobalMapping({ remotePath: "\\\\SRV\\Share\\dir\\sub" })).toEqual({
      mapping: "reused",
      link: "none",
    });
    expect(host.events).toEqual(["ensure \\\\srv\\share"]);
  });

  it("repairs an OK mapping whose path no longer opens: remove, then create", async () => {
    const { host, smb } = setup({ "\\\\srv\\share": { status: "OK", pathValid: false } });
    const result = await smb.newSmbGlobalMapping({
      remotePath: "\\\\srv\\share",
      username: "u",
      password: "new-password",
    });
    expect(result.mapping).toBe("recreated");
    expect(host.events).toEqual([
      "ensure \\\\srv\\share",
      "remove \\\\srv\\share",
      "create \\\\srv\\share",
    ]);
  });

  it.each(["Disconnected", "Unavailable", "3"])(
    "repairs a mapping with status %s",
    async (status) => {
      const { host, smb } = setup({ "\\\\srv\\share": { status } });
      expect((await smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share" })).mapping).toBe(
        "recreated",
      );
      expect(host.events.slice(1)).toEqual(["remove \\\\srv\\share", "create \\\\srv\\share"]);
      expect(host.mappings.get("\\\\srv\\share")?.status).toBe("OK");
    },
  );

  it("passes requirePrivacy: true by default, false when asked", async () => {
    const { host, smb } = setup();
    await smb.newSmbGlobalMapping({ remotePath: "\\\\a\\one" });
    await smb.newSmbGlobalMapping({ remotePath: "\\\\a\\two", requirePrivacy: false });
    await smb.newSmbGlobalMapping({ remotePath: "\\\\a\\three", requirePrivacy: true });
    expect(host.ensureRequests.map((r) => r.requirePrivacy)).toEqual([true, false, true]);
  });

  it.each([
    "alice",
    "alice@",
    "alice@corp",
    "alice@corp.com",
    "@corp.com",
    "\\alice",
    "CORP\\alice",
    "a@b@c",
    "CORP\\a@b",
  ])(
    "accepts the logon name %s, which PowerShell can turn into a Windows logon",
    async (username) => {
      const { host, smb } = setup();
      await smb.newSmbGlobalMapping({ remotePath: "\\\\a\\one", username, password: "p" });
      expect(host.ensureRequests[0]?.username).toBe(username);
    },
  );

  it("sends no credential when no username is given (empty strings count as absent)", async () => {
    const { host, smb } = setup();
    await smb.newSmbGlobalMapping({ remotePath: "\\\\a\\one", username: "", password: "" });
    expect(host.ensureRequests[0]?.username).toBeUndefined();
    expect(host.ensureRequests[0]?.password).toBeUndefined();
  });

  it("accepts an existing link to the same target, in any of its stored forms", async () => {
    for (const target of [
      "\\\\srv\\share\\pv\\",
      "\\\\SRV\\Share\\PV",
      "\\\\?\\UNC\\srv\\share\\pv\\",
      "//srv/share/pv",
    ]) {
      const { host, links, smb } = setup({}, { [staging]: { kind: "link", target } });
      const result = await smb.newSmbGlobalMapping({
        remotePath: "\\\\srv\\share\\pv",
        localPath: staging,
      });
      expect(result).toEqual({ mapping: "created", link: "existing" });
      expect(links.calls).toEqual([`read ${staging}`]);
      expect(host.events).toContain("create \\\\srv\\share");
    }
  });

  it("replaces an empty folder at localPath with the link", async () => {
    const { links, smb } = setup({}, { [staging]: { kind: "directory", empty: true } });
    expect(
      (await smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share", localPath: staging })).link,
    ).toBe("created");
    expect(links.calls).toEqual([
      `read ${staging}`,
      `rmdir ${staging}`,
      `link ${staging} -> \\\\srv\\share\\`,
    ]);
  });

  it.each([
    ["a link to another share", { kind: "link", target: "\\\\other\\share\\" }],
    ["a link to another folder of the share", { kind: "link", target: "\\\\srv\\share\\pv-2\\" }],
    ["a folder that is not empty", { kind: "directory", empty: false }],
    ["a file", { kind: "file" }],
  ] as const)(
    "fails with CONFLICT on %s at localPath, before any mapping call",
    async (_, entry) => {
      const { host, links, smb } = setup({}, { [staging]: entry });
      await expect(
        smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share\\pv-1", localPath: staging }),
      ).rejects.toMatchObject({ code: "CONFLICT" });
      expect(host.events).toEqual([]);
      expect(links.calls).toEqual([`read ${staging}`]);
    },
  );

  it("maps link failures by errno, after keeping the mapping", async () => {
    const { host, links, smb } = setup();
    links.failure = Object.assign(new Error("EPERM: operation not permitted"), { code: "EPERM" });
    await expect(
      smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share", localPath: staging }),
    ).rejects.toMatchObject({ code: "PERMISSION_DENIED" });
    expect(host.mappings.has("\\\\srv\\share")).toBe(true);
  });

  it("normalises localPath before using it: drive-less, lower-case drive, doubled separators", async () => {
    const { links, smb } = setup();
    await smb.newSmbGlobalMapping({
      remotePath: "\\\\srv\\share",
      localPath: "\\var\\lib\\kubelet\\\\pv\\.\\mount\\",
    });
    await smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share", localPath: "d:\\x" });
    expect(links.calls).toContain("link C:\\var\\lib\\kubelet\\pv\\mount -> \\\\srv\\share\\");
    expect(links.calls).toContain("link D:\\x -> \\\\srv\\share\\");
  });
});

describe("validation happens before any host call", () => {
  const bad: [string, Record<string, unknown>][] = [
    ["an empty remote path", { remotePath: "" }],
    ["a host without share", { remotePath: "\\\\hostname" }],
    ["no leading \\\\", { remotePath: "hostname\\share" }],
    ["a .. segment", { remotePath: "\\\\srv\\share\\..\\other" }],
    ["a control character", { remotePath: "\\\\srv\\share\\a\nb" }],
    ["a bad server name", { remotePath: "\\\\srv name\\share" }],
    ["a bad share name", { remotePath: "\\\\srv\\sh:are" }],
    ["a device path", { remotePath: "\\\\?\\C:\\share" }],
    ["a relative localPath", { remotePath: "\\\\srv\\share", localPath: "relative\\path" }],
    ["a UNC localPath", { remotePath: "\\\\srv\\share", localPath: "\\\\srv\\share\\x" }],
    ["a localPath with ..", { remotePath: "\\\\srv\\share", localPath: "C:\\a\\..\\b" }],
    [
      "a localPath with a forbidden character",
      { remotePath: "\\\\srv\\share", localPath: "C:\\a|b" },
    ],
    ["a drive root as localPath", { remotePath: "\\\\srv\\share", localPath: "C:\\" }],
    ["a username without a password", { remotePath: "\\\\srv\\share", username: "u" }],
    ["a password without a username", { remotePath: "\\\\srv\\share", password: "p" }],
    ["a non-boolean requirePrivacy", { remotePath: "\\\\srv\\share", requirePrivacy: "yes" }],
    ["a non-string password", { remotePath: "\\\\srv\\share", username: "u", password: 42 }],
    [
      "a username with an empty account (@corp)",
      { remotePath: "\\\\srv\\share", username: "@corp", password: "p" },
    ],
    [
      "a username with an empty account (CORP\\)",
      { remotePath: "\\\\srv\\share", username: "CORP\\", password: "p" },
    ],
    [
      "a username that is only a separator",
      { remotePath: "\\\\srv\\share", username: "\\", password: "p" },
    ],
  ];

  it.each(bad)("rejects %s with INVALID_ARGUMENT", async (_, request) => {
    const { host, links, smb } = setup();
    await expect(
      smb.newSmbGlobalMapping(request as unknown as Parameters<Smb["newSmbGlobalMapping"]>[0]),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(host.events).toEqual([]);
    expect(links.calls).toEqual([]);
  });

  it("rejects a bad remote path on removal too", async () => {
    const { host, smb } = setup();
    await expect(smb.removeSmbGlobalMapping({ remotePath: "\\\\srv" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    expect(host.events).toEqual([]);
  });

  it("applies POSIX rules to localPath when asked", async () => {
    const host = new FakeSmbHost();
    const links = new MemoryLinkHost();
    const smb = new Smb({ host, links, pathStyle: "posix" });
    await expect(
      smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share", localPath: "C:\\x" }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share", localPath: "/tmp//x/" });
    expect(links.calls).toContain("link /tmp/x -> \\\\srv\\share\\");
    expect(smb.pathStyle).toBe("posix");
  });
});

describe("removeSmbGlobalMapping", () => {
  it("removes the share root's mapping for any form of the path", async () => {
    const { host, smb } = setup({ "\\\\srv\\share": {} });
    expect(await smb.removeSmbGlobalMapping({ remotePath: "//SRV/Share/sub/" })).toEqual({
      removed: true,
    });
    expect(host.events).toEqual(["remove \\\\srv\\share"]);
    expect(host.mappings.size).toBe(0);
  });

  it("is idempotent: a missing mapping is success", async () => {
    const { smb } = setup();
    expect(await smb.removeSmbGlobalMapping({ remotePath: "\\\\srv\\share" })).toEqual({
      removed: false,
    });
  });
});

describe("listSmbGlobalMappings", () => {
  it("reports each mapping's status by name and code", async () => {
    const { smb } = setup({
      "\\\\a\\one": { status: "OK" },
      "\\\\b\\two": { status: "6" },
      "\\\\c\\three": { status: "Disconnected" },
    });
    expect(await smb.listSmbGlobalMappings()).toEqual({
      mappings: [
        { remotePath: "\\\\a\\one", status: "OK", statusCode: 0 },
        { remotePath: "\\\\b\\two", status: "Unavailable", statusCode: 6 },
        { remotePath: "\\\\c\\three", status: "Disconnected", statusCode: 2 },
      ],
    });
  });

  it("keeps a drive letter when the mapping has one", async () => {
    const host = new FakeSmbHost();
    host.listMappings = () =>
      Promise.resolve([{ remotePath: "\\\\x\\y", localPath: "G:", status: "OK", statusCode: 0 }]);
    const smb = new Smb({ host, links: new MemoryLinkHost() });
    expect((await smb.listSmbGlobalMappings()).mappings).toEqual([
      { remotePath: "\\\\x\\y", localPath: "G:", status: "OK", statusCode: 0 },
    ]);
  });
});

describe("withLinks", () => {
  it("makes the view's links through the host it is given, on the same mappings", async () => {
    const { host, links, smb } = setup();
    const other = new MemoryLinkHost();
    await smb
      .withLinks(other)
      .newSmbGlobalMapping({ remotePath: "\\\\srv\\share\\a", localPath: staging });
    expect(links.calls).toEqual([]);
    expect(other.calls).toEqual([`read ${staging}`, `link ${staging} -> \\\\srv\\share\\a\\`]);
    // The mapping is the one host's, whichever view made it.
    expect(host.events).toEqual(["ensure \\\\srv\\share", "create \\\\srv\\share"]);
    await smb.removeSmbGlobalMapping({ remotePath: "\\\\srv\\share" });
    expect(host.events.at(-1)).toBe("remove \\\\srv\\share");
  });

  it("refuses a missing or non-object link host", () => {
    const { smb } = setup();
    expect(() => smb.withLinks(undefined as never)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => smb.withLinks("x" as never)).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });
});
