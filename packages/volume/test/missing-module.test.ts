import { createPowerShell, isCsiProxyError, type PowerShell } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Volume } from "../src/index.js";

// pwsh on Linux has no Storage module: Get-Volume is CommandNotFoundException, as on a Windows
// host without it (category ObjectNotFound, which must not read as "volume not found").
describeWithPwsh("a host without the Storage module", (pwsh) => {
  let shell: PowerShell;
  let volume: Volume;
  beforeAll(() => {
    shell = createPowerShell({ executable: pwsh });
    volume = new Volume({ shell, pathStyle: "windows" });
  });
  afterAll(() => shell.close());

  it("is UNSUPPORTED naming the module, not NOT_FOUND", async () => {
    const volumeId = "\\\\?\\Volume{12345678-1234-1234-1234-123456789abc}\\";
    let error: unknown;
    try {
      await volume.isVolumeFormatted({ volumeId });
    } catch (caught) {
      error = caught;
    }
    expect(isCsiProxyError(error) && error.code).toBe("UNSUPPORTED");
    expect((error as Error).message).toContain("module Storage");
  });
});
