import { spawnSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh, waitFor } from "@csi-proxy/test-utils";
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

  // A child started with `detached` leaves the terminal's process group only once it runs setsid()
  // after fork; a Ctrl-C in between (milliseconds on a busy machine) is queued for it too and kills
  // it the moment it starts. This pwsh is slow to start, and the test sends the SIGINT to the
  // foreground group and to the starting child inside that window, as the terminal would.
  it.skipIf(!hasScript)(
    "a Ctrl-C that kills the pwsh probe as it starts is ABORTED, not EXECUTABLE_NOT_FOUND",
    async () => {
      const dir = mkdtempSync(join(scratch, "race-"));
      const started = join(dir, "probe-started");
      const slowPwsh = join(dir, "pwsh");
      writeFileSync(
        slowPwsh,
        [
          "#!/bin/sh",
          'for arg in "$@"; do case "$arg" in *PSVersionTable*)',
          `  echo "$$ $PPID" > '${started}'; exec sleep 30;;`,
          "esac; done",
          `exec '${pwsh}' "$@"`,
          "",
        ].join("\n"),
      );
      chmodSync(slowPwsh, 0o755);
      const tmp = mkdtempSync(join(dir, "tmp-"));
      const run = inTerminal(["--simulate", "disks", "list"], {
        CSI_WINSIM_PWSH: slowPwsh,
        TMPDIR: tmp,
      });
      expect(
        await waitFor(() => existsSync(started) && readFileSync(started, "utf8").endsWith("\n")),
      ).toBe(true);
      const [probe, bin] = readFileSync(started, "utf8").trim().split(" ").map(Number);
      process.kill(-Number(bin), "SIGINT");
      process.kill(Number(probe), "SIGINT");
      expect(await run.exit).toBe(exitCodes.ABORTED);
      expect(run.output()).toMatch(/csi-proxy: ABORTED: interrupted \(Ctrl-C\)/);
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
