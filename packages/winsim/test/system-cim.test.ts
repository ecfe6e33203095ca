import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { failure, useHost } from "./host.js";

const bios = ps("winsim.test.bios")`
  $b = @(Get-CimInstance -ClassName Win32_BIOS)
  [pscustomobject]@{
    Count = $b.Count
    Serial = if ($b.Count) { $b[0].SerialNumber } else { 'none' }
    Raw = if ($b.Count) { $b[0].psBase.CimInstanceProperties['SerialNumber'].Value } else { 'none' }
    Manufacturer = if ($b.Count) { $b[0].Manufacturer } else { 'none' }
    TypeName = if ($b.Count) { $b[0].PSObject.TypeNames[0] } else { 'none' }
  }
`;

const query = ps("winsim.test.cimQuery")`
  param([string]$Query, [string]$ClassName, [string]$Filter, [string[]]$Property)
  $found = if ($Query) { Get-CimInstance -Query $Query } elseif ($Property) { Get-CimInstance $ClassName -Property $Property } elseif ($Filter) { Get-CimInstance -ClassName $ClassName -Filter $Filter } else { Get-CimInstance -ClassName $ClassName -Namespace root\cimv2 }
  ,@($found | ForEach-Object { [pscustomobject]@{ Name = $_.Name; State = $_.State; StartMode = $_.StartMode; Serial = $_.SerialNumber; Version = $_.Version } })
`;

describeWithPwsh("Get-CimInstance: Win32_BIOS", (pwsh) => {
  const padded = useHost(pwsh, { system: { bios: { serialNumber: "  VMware-42 00 a6 a6   " } } });
  const none = useHost(pwsh, { system: { bios: { serialNumber: null } } });
  const missing = useHost(pwsh, { system: { bios: null } });
  const defaults = useHost(pwsh, {});

  it("returns the serial as firmware pads it, on a root/cimv2 type name, and logs the call", async () => {
    expect(await padded.shell.run(bios)).toEqual({
      Count: 1,
      Serial: "  VMware-42 00 a6 a6   ",
      Raw: "  VMware-42 00 a6 a6   ",
      Manufacturer: "Microsoft Corporation",
      TypeName: "Microsoft.Management.Infrastructure.CimInstance#root/cimv2/Win32_BIOS",
    });
    expect(padded.sim.calls()).toMatchObject([
      { command: "Get-CimInstance", parameters: { ClassName: "Win32_BIOS" }, outcome: "ok" },
    ]);
  });

  it("returns a null serial, no instance when the scenario has no BIOS, and the default otherwise", async () => {
    expect(await none.shell.run(bios)).toMatchObject({ Count: 1, Serial: null });
    expect(await missing.shell.run(bios)).toMatchObject({ Count: 0 });
    expect(await defaults.shell.run(bios)).toMatchObject({
      Serial: "0000-0012-6148-5623-3371-0823-24",
    });
  });

  it("answers WQL queries, -Filter and -Property", async () => {
    expect(
      await defaults.shell.run(query, { Query: "SELECT SerialNumber FROM Win32_BIOS" }),
    ).toEqual([expect.objectContaining({ Serial: "0000-0012-6148-5623-3371-0823-24" })]);
    expect(
      await defaults.shell.run(query, { ClassName: "Win32_Service", Filter: "Name='msiscsi'" }),
    ).toEqual([
      { Name: "MSiSCSI", State: "Stopped", StartMode: "Manual", Serial: null, Version: null },
    ]);
    const [only] = await defaults.shell.run<{ Serial: string | null; Version: string }[]>(query, {
      ClassName: "Win32_BIOS",
      Property: ["Manufacturer"],
    });
    expect(only?.Serial).toBeNull();
    expect(only?.Version).toBe("VRTUAL - 12001807");
    expect(await defaults.shell.run(query, { ClassName: "Win32_BIOS" })).toHaveLength(1);
  });

  it("fails an unknown class as CimCmdlets does, with the command class in the error id", async () => {
    const error = await failure(defaults.shell.run(query, { ClassName: "Win32_Nope" }));
    expect(error.record).toMatchObject({
      message: "Invalid class ",
      fullyQualifiedErrorId:
        "HRESULT 0x80041010,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand",
      category: "MetadataError",
      nativeErrorCode: "InvalidClass",
    });
  });

  it("injects faults on Get-CimInstance", async () => {
    defaults.sim.fault({
      command: "Get-CimInstance",
      action: "error",
      error: {
        message: "Access denied ",
        errorId: "HRESULT 0x80041003",
        category: "PermissionDenied",
      },
    });
    const error = await failure(defaults.shell.run(bios));
    expect(error.record?.fullyQualifiedErrorId).toBe(
      "HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand",
    );
    expect(defaults.sim.calls().at(-1)?.outcome).toBe("fault");
  });
});
