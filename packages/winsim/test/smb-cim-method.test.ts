import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ps, type ParamValue } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { beforeEach, expect, it } from "vitest";
import { buildSmbState, type SmbSpec } from "../src/index.js";
import { failure, useHost } from "./host.js";

const smb: SmbSpec = {
  servers: [
    {
      name: "fs1",
      accounts: { "CONTOSO\\alice": "alice-pw" },
      shares: [{ name: "kerb", computerAccount: true }, "data"],
    },
    { name: "fs2", shares: [{ name: "old", computerAccount: true }] },
  ],
  // A mapping made earlier without a credential (no user).
  mappings: [{ remotePath: "\\\\fs2\\old" }],
};

const writer = "Microsoft.Management.Infrastructure.CimCmdlets.InvokeCimMethodCommand";

// The call the SMB group makes, with the class, method and namespace open to test the errors.
const create = ps("winsim.test.cimCreate")`
  param([string]$Namespace, [string]$ClassName, [string]$MethodName, $Arguments)
  $cimArguments = @{}
  foreach ($p in $Arguments.PSObject.Properties) { $cimArguments[$p.Name] = $p.Value }
  $r = Invoke-CimMethod -Namespace $Namespace -ClassName $ClassName -MethodName $MethodName -Arguments $cimArguments
  [pscustomobject]@{
    ReturnValue = $r.ReturnValue; Status = [string]$r.CreatedMapping.Status; RemotePath = $r.CreatedMapping.RemotePath
    Types = @($r.PSObject.TypeNames); Mapping = @($r.CreatedMapping.PSObject.TypeNames)[0]
  }
`;

const unmodelled = ps("winsim.test.cimQuery")`
  param()
  Invoke-CimMethod -Query 'SELECT * FROM MSFT_SmbGlobalMapping' -MethodName Remove
`;

const ns = "ROOT/Microsoft/Windows/SMB";
const call = (args: Record<string, ParamValue>, over: Record<string, string> = {}) => ({
  Namespace: ns,
  ClassName: "MSFT_SmbGlobalMapping",
  MethodName: "Create",
  Arguments: args,
  ...over,
});

describeWithPwsh("Invoke-CimMethod: MSFT_SmbGlobalMapping.Create", (pwsh) => {
  const host = useHost(pwsh, { systemDisk: false, smb });
  beforeEach(() => {
    host.sim.update((state) => (state.smb = buildSmbState(smb, host.sim.root)));
    host.sim.clearCalls();
    host.sim.clearFaults();
  });

  it("maps without a credential as the computer account and returns a CimMethodResult", async () => {
    const out = await host.shell.run(
      create,
      call({ RemotePath: "\\\\fs1\\kerb", RequirePrivacy: true }),
    );
    expect(out).toEqual({
      ReturnValue: 0,
      Status: "OK",
      RemotePath: "\\\\fs1\\kerb",
      Types: [
        "Microsoft.Management.Infrastructure.CimMethodResult#MSFT_SmbGlobalMapping#Create",
        "Microsoft.Management.Infrastructure.CimMethodResult",
        "System.Management.Automation.PSCustomObject",
        "System.Object",
      ],
      Mapping:
        "Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/SMB/MSFT_SmbGlobalMapping",
    });
    expect(host.sim.state().smb?.mappings.at(-1)).toMatchObject({
      remotePath: "\\\\fs1\\kerb",
      user: "",
      passwordSha256: "",
      requirePrivacy: true,
    });
    expect(host.sim.calls()).toMatchObject([
      {
        command: "Invoke-CimMethod",
        parameters: { Namespace: ns, ClassName: "MSFT_SmbGlobalMapping", MethodName: "Create" },
        target: { RemotePath: "\\\\fs1\\kerb", RequirePrivacy: true },
        outcome: "ok",
      },
    ]);
  });

  it("refuses a share that does not admit the computer account with Windows error 5", async () => {
    const error = await failure(host.shell.run(create, call({ RemotePath: "\\\\fs1\\data" })));
    expect(error.record).toMatchObject({
      fullyQualifiedErrorId: `Windows System Error 5,${writer}`,
      message: "Access is denied.",
      reason: "CimException",
      nativeErrorCode: "Failed",
      statusCode: 1,
      messageId: "Windows System Error 5",
    });
    expect(host.sim.calls().map((c) => c.outcome)).toEqual(["error"]);
  });

  it("takes a Credential argument as user:password, logging the user only", async () => {
    await host.shell.run(
      create,
      call({ RemotePath: "\\\\fs1\\data", Credential: "CONTOSO\\\\alice:alice-pw" }),
    );
    expect(host.sim.state().smb?.mappings.at(-1)).toMatchObject({ user: "CONTOSO\\alice" });
    expect(host.sim.calls()[0]?.target).toMatchObject({ Credential: "CONTOSO\\alice" });
    expect(readFileSync(join(host.sim.dir, "calls.jsonl"), "utf8")).not.toContain("alice-pw");
  });

  it.each([
    ["an unknown namespace", { Namespace: "root/nope" }, "HRESULT 0x8004100e", "MetadataError"],
    ["an unknown class", { ClassName: "MSFT_Nope" }, "HRESULT 0x80041010", "MetadataError"],
    [
      "the class in another namespace",
      { Namespace: "root/cimv2" },
      "HRESULT 0x80041010",
      "MetadataError",
    ],
    ["an unknown method", { MethodName: "Connect" }, "HRESULT 0x8004102e", "MetadataError"],
  ])("fails for %s as WMI does", async (_why, over, id, category) => {
    const error = await failure(
      host.shell.run(create, call({ RemotePath: "\\\\fs1\\kerb" }, over)),
    );
    expect(error.record).toMatchObject({ fullyQualifiedErrorId: `${id},${writer}`, category });
    expect(host.sim.state().smb?.mappings).toHaveLength(1);
  });

  it("fails for an argument Create does not take", async () => {
    const error = await failure(
      host.shell.run(create, call({ RemotePath: "\\\\fs1\\kerb", UserName: "x" })),
    );
    expect(error.record?.fullyQualifiedErrorId).toBe(`HRESULT 0x8004102f,${writer}`);
  });

  it("refuses the parameter sets it does not model, unlogged", async () => {
    const error = await failure(host.shell.run(unmodelled));
    expect(error.record?.fullyQualifiedErrorId).toBe("WinSimNotModelled,Invoke-CimMethod");
    expect(host.sim.calls()).toEqual([]);
  });

  it("takes faults matched on an argument, with the real error id", async () => {
    host.sim.fault({
      command: "Invoke-CimMethod",
      match: { RemotePath: "\\\\fs1\\kerb" },
      action: "error",
      error: { message: "Generic failure", errorId: "HRESULT 0x80041001" },
    });
    const error = await failure(host.shell.run(create, call({ RemotePath: "\\\\fs1\\kerb" })));
    expect(error.record?.fullyQualifiedErrorId).toBe(`HRESULT 0x80041001,${writer}`);
    expect(host.sim.calls().map((c) => c.outcome)).toEqual(["fault"]);
  });
});
