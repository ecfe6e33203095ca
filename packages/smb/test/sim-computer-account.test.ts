import { readlinkSync } from "node:fs";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { uncToLocal, type SmbSpec } from "@csi-proxy/winsim";
import { beforeEach, expect, it } from "vitest";
import { alice, causeId, failure, useSmbSim } from "./sim-setup.js";

// One server: "kerb" admits the node's computer account, "data" only alice (and not the computer).
const spec: SmbSpec = {
  servers: [
    {
      name: "fs1",
      accounts: { [alice.username]: alice.password },
      shares: [{ name: "kerb", computerAccount: true }, "data"],
    },
  ],
};

const invokeCimMethodId = "Microsoft.Management.Infrastructure.CimCmdlets.InvokeCimMethodCommand";

describeWithPwsh("Smb without credentials (the computer account) on the simulated host", (pwsh) => {
  const h = useSmbSim(pwsh, "session");
  beforeEach(() => h().reset(spec));

  it("maps a share the computer account may use through MSFT_SmbGlobalMapping.Create, and links it", async () => {
    const { sim, smb } = h();
    const remotePath = h().shareFolder("\\\\fs1\\kerb\\pv-1");
    const localPath = h().local("pv-1");
    expect(await smb.newSmbGlobalMapping({ remotePath, localPath })).toEqual({
      mapping: "created",
      link: "created",
    });
    expect(sim.state().smb?.mappings).toMatchObject([
      { remotePath: "\\\\fs1\\kerb", user: "", passwordSha256: "", requirePrivacy: true },
    ]);
    const create = h()
      .calls()
      .find((c) => c.command === "Invoke-CimMethod");
    expect(create).toMatchObject({
      parameters: {
        Namespace: "ROOT/Microsoft/Windows/SMB",
        ClassName: "MSFT_SmbGlobalMapping",
        MethodName: "Create",
      },
      target: { RemotePath: "\\\\fs1\\kerb", RequirePrivacy: true },
      outcome: "ok",
    });
    expect(h().commands()).not.toContain("New-SmbGlobalMapping");
    expect(readlinkSync(localPath)).toBe(uncToLocal(sim, remotePath));
  });

  it("reuses the working mapping on a repeat, and removes it", async () => {
    const { sim, smb } = h();
    const remotePath = "\\\\fs1\\kerb";
    h().shareFolder(remotePath);
    expect((await smb.newSmbGlobalMapping({ remotePath })).mapping).toBe("created");
    expect((await smb.newSmbGlobalMapping({ remotePath: "\\\\FS1\\Kerb\\" })).mapping).toBe(
      "reused",
    );
    expect(
      h()
        .commands()
        .filter((c) => c === "Invoke-CimMethod"),
    ).toHaveLength(1);
    expect(await smb.removeSmbGlobalMapping({ remotePath })).toEqual({ removed: true });
    expect(sim.state().smb?.mappings).toEqual([]);
    expect(await smb.removeSmbGlobalMapping({ remotePath })).toEqual({ removed: false });
  });

  it("reports a share the computer account may not use as PERMISSION_DENIED (Windows error 5)", async () => {
    const error = await failure(h().smb.newSmbGlobalMapping({ remotePath: "\\\\fs1\\data" }));
    expect(error.code).toBe("PERMISSION_DENIED");
    expect(error.message).toMatch(/computer account/);
    expect(causeId(error)).toBe(`Windows System Error 5,${invokeCimMethodId}`);
    expect(h().sim.state().smb?.mappings).toEqual([]);
  });

  it("reports a server already mapped with a user name as CONFLICT (Windows error 1219)", async () => {
    const { smb } = h();
    await smb.newSmbGlobalMapping({ remotePath: h().shareFolder("\\\\fs1\\data"), ...alice });
    const error = await failure(smb.newSmbGlobalMapping({ remotePath: "\\\\fs1\\kerb" }));
    expect(error.code).toBe("CONFLICT");
    expect(causeId(error)).toBe(`Windows System Error 1219,${invokeCimMethodId}`);
  });

  it("reuses a working credentialed mapping of the same share: credentials are not compared", async () => {
    const { smb } = h();
    const remotePath = h().shareFolder("\\\\fs1\\data");
    await smb.newSmbGlobalMapping({ remotePath, ...alice });
    expect((await smb.newSmbGlobalMapping({ remotePath })).mapping).toBe("reused");
    expect(h().commands()).not.toContain("Invoke-CimMethod");
  });

  it("replaces a mapping the computer account can no longer open, and fails with the typed error", async () => {
    const { sim, smb } = h();
    const remotePath = h().shareFolder("\\\\fs1\\kerb");
    await smb.newSmbGlobalMapping({ remotePath });
    sim.update((state) => {
      const share = state.smb?.servers[0]?.shares.find((s) => s.name === "kerb");
      if (share !== undefined) share.computerAccount = false;
    });
    const error = await failure(smb.newSmbGlobalMapping({ remotePath }));
    expect(error.code).toBe("PERMISSION_DENIED");
    expect(h().commands()).toContain("Remove-SmbGlobalMapping");
    expect(sim.state().smb?.mappings).toEqual([]);
  });

  it("maps an injected Invoke-CimMethod fault by its id, matched on the remote path", async () => {
    const { sim, smb } = h();
    sim.fault({
      command: "Invoke-CimMethod",
      match: { RemotePath: "\\\\fs1\\kerb" },
      action: "error",
      error: { message: "The network path was not found.", errorId: "Windows System Error 53" },
    });
    const error = await failure(smb.newSmbGlobalMapping({ remotePath: "\\\\fs1\\kerb" }));
    expect(error.code).toBe("NOT_FOUND");
    expect(causeId(error)).toBe(`Windows System Error 53,${invokeCimMethodId}`);
    expect(
      h()
        .calls()
        .map((c) => c.outcome),
    ).toEqual(["ok", "fault"]);
  });

  it("survives a PowerShell process killed in Invoke-CimMethod; the retry maps the share", async () => {
    const { sim, smb } = h();
    const remotePath = h().shareFolder("\\\\fs1\\kerb");
    sim.fault({ command: "Invoke-CimMethod", action: "kill" });
    expect((await failure(smb.newSmbGlobalMapping({ remotePath }))).code).toBe("PROCESS_EXITED");
    expect(sim.state().smb?.mappings).toEqual([]);
    expect((await smb.newSmbGlobalMapping({ remotePath })).mapping).toBe("created");
  });
});
