import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { failure, useSimHost } from "./sim-helpers.js";

const rawSerial = ps("system.test.rawSerial")`(Get-CimInstance Win32_BIOS).SerialNumber`;

describeWithPwsh("getBiosSerialNumber on the simulator (session)", (pwsh) => {
  const padded = useSimHost(pwsh, {
    system: {
      bios: { serialNumber: "  VMware-42 00 a6 a6 02 95 ec 5e-89 05 0a cd b1 3b aa c6   " },
    },
  });
  const blank = useSimHost(pwsh, { system: { bios: { serialNumber: null } } });
  const none = useSimHost(pwsh, { system: { bios: null } });

  it("upstream GetBIOSSerialNumber: Get-CimInstance Win32_BIOS contains the returned serial", async () => {
    const { serialNumber } = await padded.system.getBiosSerialNumber();
    expect(serialNumber).toBe("VMware-42 00 a6 a6 02 95 ec 5e-89 05 0a cd b1 3b aa c6");
    expect(await padded.shell.run<string>(rawSerial)).toContain(serialNumber);
    expect(padded.sim.calls()).toMatchObject([
      { command: "Get-CimInstance", parameters: { ClassName: "Win32_BIOS" }, outcome: "ok" },
      { command: "Get-CimInstance", outcome: "ok" },
    ]);
  });

  it("is idempotent: a second read gives the same serial", async () => {
    const first = await padded.system.getBiosSerialNumber({});
    expect(await padded.system.getBiosSerialNumber({})).toEqual(first);
  });

  it("gives an empty serial for a null SerialNumber and for a host without Win32_BIOS", async () => {
    expect(await blank.system.getBiosSerialNumber()).toEqual({ serialNumber: "" });
    expect(await none.system.getBiosSerialNumber()).toEqual({ serialNumber: "" });
  });

  it("rejects a request that is not an object before running anything", async () => {
    blank.sim.clearCalls();
    const error = await failure(blank.system.getBiosSerialNumber(null as never));
    expect(error.code).toBe("INVALID_ARGUMENT");
    expect(blank.sim.calls()).toEqual([]);
  });

  it("maps a CIM failure to COMMAND_FAILED with the PowerShell error as cause", async () => {
    none.sim.fault({
      command: "Get-CimInstance",
      action: "error",
      error: {
        message: "Access denied ",
        errorId: "HRESULT 0x80041003",
        category: "PermissionDenied",
      },
    });
    const error = await failure(none.system.getBiosSerialNumber());
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.message).toContain("Access denied");
    expect(
      (error.cause as { record?: { fullyQualifiedErrorId?: string } }).record
        ?.fullyQualifiedErrorId,
    ).toBe(
      "HRESULT 0x80041003,Microsoft.Management.Infrastructure.CimCmdlets.GetCimInstanceCommand",
    );
  });
});
