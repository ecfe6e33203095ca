import { lstatSync, readlinkSync } from "node:fs";
import { setSmbPassword, type Simulator } from "@csi-proxy/winsim";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { beforeEach, expect, it } from "vitest";
import { alice, failure, useSmbSim } from "./sim-setup.js";

// Cancelled while a script runs on the simulated host (real pwsh): the process is ended, the
// shell serves the next call, and a retry reaches the state an uncancelled call reaches.

const rotated = "rotated-Secret-3";
/** Long enough never to end by itself: the call must be cancelled to get past it. */
const hangMs = 600_000;

/** Resolves once the armed delay fault was met (its call is logged only when it ends). */
async function faultMet(sim: Simulator): Promise<void> {
  while (!sim.faults().every((f) => f.times === 0)) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** What a test compares: the mappings (no sequence-dependent fields) and the link at `path`. */
function outcome(sim: Simulator, path: string) {
  const mappings = (sim.state().smb?.mappings ?? []).map((m) => ({
    remotePath: m.remotePath,
    status: m.status,
    user: m.user,
    passwordSha256: m.passwordSha256,
    requirePrivacy: m.requirePrivacy,
  }));
  let link: string | undefined;
  try {
    if (lstatSync(path).isSymbolicLink()) link = readlinkSync(path);
  } catch {
    link = undefined;
  }
  return { mappings, link };
}

describeWithPwsh("cancelling Smb methods on the simulated host", (pwsh) => {
  const h = useSmbSim(pwsh, "session");
  beforeEach(() => h().reset());

  /** A mapping made with alice's old password, then her password changed: it must be replaced. */
  async function staleMapping() {
    const { sim, smb } = h();
    const remotePath = h().shareFolder("\\\\fs1\\data\\pv-1");
    await smb.newSmbGlobalMapping({ remotePath, ...alice });
    setSmbPassword(sim, "fs1", alice.username, rotated);
    sim.clearCalls();
    return {
      remotePath,
      localPath: h().local("pv-1/globalmount"),
      username: alice.username,
      password: rotated,
    };
  }

  it(
    "newSmbGlobalMapping aborted in New-SmbGlobalMapping (old mapping removed): ABORTED, then a retry converges",
    { timeout: 120_000 },
    async () => {
      // What an uncancelled call does.
      const request = await staleMapping();
      expect(await h().smb.newSmbGlobalMapping(request)).toEqual({
        mapping: "recreated",
        link: "created",
      });
      const expected = outcome(h().sim, request.localPath);

      h().reset();
      const again = await staleMapping();
      const { sim, smb } = h();
      sim.fault({ command: "New-SmbGlobalMapping", action: "delay", delayMs: hangMs });
      const controller = new AbortController();
      const cancelled = smb.newSmbGlobalMapping(again, { signal: controller.signal });
      await faultMet(sim);
      controller.abort();
      const error = await failure(cancelled);
      expect(error.code).toBe("ABORTED");
      expect(JSON.stringify(error)).not.toContain(rotated);
      expect(error.message).not.toContain(rotated);
      // The replace had removed the stale mapping; the link step never ran.
      expect(h().commands()).toEqual([
        "Get-SmbGlobalMapping",
        "Test-Path",
        "Remove-SmbGlobalMapping",
      ]);
      expect(outcome(sim, again.localPath)).toEqual({ mappings: [], link: undefined });
      // The shell serves the next call.
      expect(await smb.listSmbGlobalMappings()).toEqual({ mappings: [] });

      sim.clearFaults();
      expect(await smb.newSmbGlobalMapping(again)).toEqual({
        mapping: "created",
        link: "created",
      });
      expect(outcome(sim, again.localPath)).toEqual(expected);
    },
  );

  it(
    "newSmbGlobalMapping without credentials past its deadline in Invoke-CimMethod: TIMEOUT, then a retry converges",
    { timeout: 120_000 },
    async () => {
      const { sim, smb } = h();
      h().reset({
        servers: [{ name: "fs1", accounts: {}, shares: [{ name: "kerb", computerAccount: true }] }],
      });
      const request = {
        remotePath: h().shareFolder("\\\\fs1\\kerb\\pv-2"),
        localPath: h().local("pv-2"),
      };
      sim.fault({ command: "Invoke-CimMethod", action: "delay", delayMs: hangMs });
      // Fires wherever the call is by then (even before the cmdlet, on a loaded machine).
      const error = await failure(smb.newSmbGlobalMapping(request, { timeoutMs: 3_000 }));
      expect(error.code).toBe("TIMEOUT");
      expect(outcome(sim, request.localPath)).toEqual({ mappings: [], link: undefined });

      sim.clearFaults();
      expect(await smb.newSmbGlobalMapping(request)).toEqual({
        mapping: "created",
        link: "created",
      });
      const done = outcome(sim, request.localPath);
      expect(done.mappings).toEqual([expect.objectContaining({ remotePath: "\\\\fs1\\kerb" })]);
      expect(done.link).toBeDefined();
    },
  );

  it(
    "removeSmbGlobalMapping aborted in Remove-SmbGlobalMapping: ABORTED, then a retry removes it",
    { timeout: 120_000 },
    async () => {
      const { sim, smb } = h();
      const remotePath = h().shareFolder("\\\\fs1\\logs");
      await smb.newSmbGlobalMapping({ remotePath, ...alice });
      sim.fault({ command: "Remove-SmbGlobalMapping", action: "delay", delayMs: hangMs });
      const controller = new AbortController();
      const cancelled = smb.removeSmbGlobalMapping({ remotePath }, { signal: controller.signal });
      await faultMet(sim);
      controller.abort();
      expect((await failure(cancelled)).code).toBe("ABORTED");
      sim.clearFaults();
      expect(await smb.removeSmbGlobalMapping({ remotePath })).toEqual({ removed: true });
      expect(sim.state().smb?.mappings).toEqual([]);
    },
  );
});
