import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createPowerShell, type PowerShell } from "@csi-proxy/exec";
import { createNodeSmbLinkHost, Smb } from "@csi-proxy/smb";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Simulator, translateUncLinks } from "@csi-proxy/winsim";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { errorOf, expectNoSecret, useEventLog, visible } from "./leak-watch.js";

const user = "CONTOSO\\alice";
const secret = "Pa$$w0rd'\u2019;$(whoami)`n-7f3c9e";
const share = "\\\\fs1\\data";

describeWithPwsh("secrets: an SMB password never shows, on success or any failure", (pwsh) => {
  const events = useEventLog();
  let sim: Simulator;
  let shell: PowerShell;
  let smb: Smb;
  let impatient: PowerShell;
  const seen: unknown[] = [];

  beforeAll(async () => {
    sim = await Simulator.create({
      systemDisk: false,
      smb: { servers: [{ name: "fs1", accounts: { [user]: secret }, shares: ["data"] }] },
    });
    const links = translateUncLinks(sim, createNodeSmbLinkHost());
    shell = createPowerShell(sim.shellOptions({ executable: pwsh }));
    smb = new Smb({ shell, links, pathStyle: "posix" });
    impatient = createPowerShell(sim.shellOptions({ executable: pwsh, timeoutMs: 1_500 }));
  });

  afterEach(async () => {
    sim.clearFaults();
    await smb.removeSmbGlobalMapping({ remotePath: share });
  });

  afterAll(async () => {
    await shell.close();
    await impatient.close();
    await sim.dispose();
  });

  const request = { remotePath: share, username: user, password: secret };

  it("success: mapped, listed and removed", async () => {
    expect((await smb.newSmbGlobalMapping(request)).mapping).toBe("created");
    seen.push(await smb.listSmbGlobalMappings());
  });

  it("validation errors", async () => {
    seen.push(await errorOf(smb.newSmbGlobalMapping({ remotePath: share, password: secret })));
    seen.push(await errorOf(smb.newSmbGlobalMapping({ ...request, remotePath: "fs1/data" })));
    seen.push(await errorOf(smb.newSmbGlobalMapping({ ...request, localPath: "relative/pod" })));
    seen.push(await errorOf(smb.newSmbGlobalMapping({ ...request, password: `${secret}\u0000` })));
  });

  it("wrong credentials", async () => {
    const error = await errorOf(smb.newSmbGlobalMapping({ ...request, password: `${secret}x` }));
    expect((error as { code?: string }).code).toBe("PERMISSION_DENIED");
    seen.push(error);
  });

  it("an error whose message echoes the secret", async () => {
    sim.fault({
      command: "New-SmbGlobalMapping",
      action: "error",
      error: {
        message: `Logon failure for ${user} with password ${secret}`,
        errorId: "WinSim 1326",
      },
    });
    seen.push(await errorOf(smb.newSmbGlobalMapping(request)));
  });

  it("the process killed mid-call", async () => {
    sim.fault({ command: "New-SmbGlobalMapping", action: "kill" });
    const error = await errorOf(smb.newSmbGlobalMapping(request));
    expect((error as { code?: string }).code).toBe("PROCESS_EXITED");
    seen.push(error);
  });

  it("a timeout", async () => {
    sim.fault({ command: "New-SmbGlobalMapping", action: "delay", delayMs: 10_000 });
    const slow = new Smb({ shell: impatient, pathStyle: "posix" });
    const error = await errorOf(slow.newSmbGlobalMapping(request));
    expect((error as { code?: string }).code).toBe("TIMEOUT");
    seen.push(error);
  });

  it("no error, diagnostics event, call log or state file holds it", () => {
    expect(seen.length).toBeGreaterThanOrEqual(8);
    for (const [index, value] of seen.entries())
      expectNoSecret(visible(value), secret, `error ${index}`);
    expect(events().length).toBeGreaterThan(0);
    expectNoSecret(visible(events()), secret, "a diagnostics event");
    for (const file of ["calls.jsonl", "state.json"]) {
      expectNoSecret(readFileSync(join(sim.dir, file), "utf8"), secret, file);
    }
  });
});
