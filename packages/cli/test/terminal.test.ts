import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Simulator } from "@csi-proxy/winsim";
import { afterAll, expect, it } from "vitest";
import { exitCodes } from "../src/index.js";
import { inTerminal, runBin } from "./bin-harness.js";

const hasScript = spawnSync("script", ["--version"]).status === 0;

// Ctrl-C at a real terminal: SIGINT reaches the bin and every process of the foreground group.
describeWithPwsh("csi-proxy --simulate at a terminal", (pwsh) => {
  const scratch = mkdtempSync(join(tmpdir(), "cli-terminal-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const winsimFolders = (dir: string) => readdirSync(dir).filter((e) => e.startsWith("winsim-"));

  it.skipIf(!hasScript)(
    "the first Ctrl-C while the node is prepared prints ABORTED, exits 19 and removes the node's folder",
    async () => {
      const tmp = mkdtempSync(join(scratch, "tmp-"));
      const run = inTerminal(["--simulate", "disks", "list"], {
        CSI_WINSIM_PWSH: pwsh,
        TMPDIR: tmp,
      });
      await run.shown("Preparing the simulated node");
      run.type("\x03");
      expect(await run.exit).toBe(exitCodes.ABORTED);
      expect(run.output()).toMatch(/csi-proxy: ABORTED: [^\r\n]+\r?\n/);
      expect(run.output()).not.toContain("Reading disks");
      expect(winsimFolders(tmp)).toEqual([]);
    },
  );

  it.skipIf(!hasScript)("the first Ctrl-C during a read cancels it: ABORTED, exit 19", async () => {
    const dir = join(scratch, "kept");
    const env = { CSI_WINSIM_PWSH: pwsh };
    expect((await runBin(["--simulate", "--state-dir", dir, "services"], env)).code).toBe(0);
    const sim = await Simulator.open(dir);
    const gate = sim.block({ command: "Get-Disk" });
    const run = inTerminal(["--simulate", "--state-dir", dir, "disks", "list"], env);
    await gate.met();
    run.type("\x03");
    expect(await run.exit).toBe(exitCodes.ABORTED);
    expect(run.output()).toMatch(/Reading disks/);
    expect(run.output()).toMatch(/csi-proxy: ABORTED: [^\r\n]*was aborted/);
    gate.release();
  });
});
