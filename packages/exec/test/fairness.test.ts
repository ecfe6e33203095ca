// One key's calls never hold every process (issue #37): while key "a" has more calls blocked in
// PowerShell than the pool has processes, a call of key "b" is answered. The calls wait on a
// file the test creates, so the order is shown without timing anything.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh, waitFor } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { createPowerShell, ps, withCallContext } from "../src/index.js";

const held = ps("test.fairness.held")`
param([string]$Gate)
while (-not [System.IO.File]::Exists($Gate)) { Start-Sleep -Milliseconds 20 }
'released'`;
const quick = ps("test.fairness.quick")`'quick'`;

describeWithPwsh("the pool's fairness keys", (pwsh) => {
  it("answers another key's call while one key's calls are held in every process they may take", async () => {
    const dir = mkdtempSync(join(tmpdir(), "csi-fair-"));
    const gate = join(dir, "gate");
    const shell = createPowerShell({ executable: pwsh, poolSize: 3 });
    try {
      const flood = Array.from({ length: 6 }, () =>
        shell.run(held, { Gate: gate }, { fairnessKey: "a", timeoutMs: 120_000 }),
      );
      expect(await waitFor(() => shell.stats?.().busy === 2, 60_000)).toBe(true);
      // Through a group method's context, as the groups pass it on.
      const b = await withCallContext("quick", { fairnessKey: "b", timeoutMs: 60_000 }, (context) =>
        shell.run(quick, {}, context.runOptions()),
      );
      expect(b).toBe("quick");
      expect(existsSync(gate)).toBe(false);
      expect(shell.stats?.()).toMatchObject({ busy: 2, queued: 4 });
      writeFileSync(gate, "");
      expect(await Promise.all(flood)).toEqual(Array(6).fill("released"));
    } finally {
      await shell.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("refuses a fairness key that is not a short non-empty string", async () => {
    const shell = createPowerShell({ executable: pwsh, poolSize: 1 });
    try {
      for (const fairnessKey of ["", "x".repeat(257), 7]) {
        await expect(
          shell.run(quick, {}, { fairnessKey } as unknown as { fairnessKey: string }),
        ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
        await expect(
          withCallContext("m", { fairnessKey } as unknown as { fairnessKey: string }, () =>
            Promise.resolve(),
          ),
        ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
      }
    } finally {
      await shell.close();
    }
  });
});
