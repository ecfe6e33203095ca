import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { childPids, describeWithPwsh, waitFor } from "@csi-proxy/test-utils";
import { describe, expect, it } from "vitest";
import { createPowerShell, ps, type PowerShell } from "../src/index.js";

const sleep = ps("test.warm.sleep")`param([int]$Ms) Start-Sleep -Milliseconds $Ms; 'slept'`;
const pid = ps("test.warm.pid")`$PID`;

/** Child processes of this test process that are not in `before`. */
function newChildren(before: ReadonlySet<number>): number[] {
  return childPids().filter((p) => !before.has(p));
}

async function closing(shell: PowerShell, body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } finally {
    await shell.close();
  }
}

describeWithPwsh("warm processes and deadlines against real pwsh", (pwsh) => {
  describe("warmUp", () => {
    it("starts keepWarm processes before any call, and the first call runs on one of them", async () => {
      const before = new Set(childPids());
      const shell = createPowerShell({ executable: pwsh, poolSize: 3, keepWarm: 2 });
      await closing(shell, async () => {
        await shell.warmUp();
        const warmed = newChildren(before);
        expect(warmed).toHaveLength(2);
        expect(warmed).toContain(await shell.run<number>(pid));
        expect(newChildren(before)).toHaveLength(2);
      });
      expect(await waitFor(() => newChildren(before).length === 0)).toBe(true);
    });

    it("keeps the warm floor through idleness while closing the processes above it", async () => {
      const before = new Set(childPids());
      const shell = createPowerShell({
        executable: pwsh,
        poolSize: 2,
        keepWarm: 1,
        idleTimeoutMs: 100,
      });
      await closing(shell, async () => {
        const pids = await Promise.all([
          shell.run<number>(sleep, { Ms: 400 }).then(() => shell.run<number>(pid)),
          shell.run<number>(pid),
        ]);
        expect(new Set(pids).size).toBe(2);
        // One of the two is spared for idleness; the floor of one stays.
        expect(await waitFor(() => newChildren(before).length === 1)).toBe(true);
        const [survivor] = newChildren(before);
        // Many idle periods later it is still the one that answers.
        await new Promise((resolve) => setTimeout(resolve, 600));
        expect(await shell.run<number>(pid)).toBe(survivor);
      });
    });

    it("replaces a process ended by an aborted call without waiting for the next call", async () => {
      const before = new Set(childPids());
      const shell = createPowerShell({ executable: pwsh, keepWarm: 1 });
      await closing(shell, async () => {
        await shell.warmUp();
        const [first] = newChildren(before);
        const controller = new AbortController();
        const running = shell.run(sleep, { Ms: 60_000 }, { signal: controller.signal });
        await new Promise((resolve) => setTimeout(resolve, 200));
        controller.abort();
        await expect(running).rejects.toMatchObject({ code: "ABORTED" });
        expect(
          // A process start on a loaded machine can take several seconds.
          await waitFor(() => {
            const now = newChildren(before);
            return now.length === 1 && now[0] !== first;
          }, 60_000),
        ).toBe(true);
      });
    });

    it("warms a spawn-mode shell by running one empty call", async () => {
      const shell = createPowerShell({ executable: pwsh, mode: "spawn" });
      await closing(shell, async () => {
        await expect(shell.warmUp()).resolves.toBeUndefined();
      });
    });

    it("is cancellable and checks its options like any call", async () => {
      const shell = createPowerShell({ executable: pwsh });
      await closing(shell, async () => {
        await expect(shell.warmUp({ signal: AbortSignal.abort() })).rejects.toMatchObject({
          code: "ABORTED",
        });
        await expect(shell.warmUp({ timeoutMs: -1 })).rejects.toMatchObject({
          code: "INVALID_ARGUMENT",
        });
      });
    });
  });

  describe("timeouts and the queue", () => {
    it("counts the shell's default limit from when a script starts, not while it queues", async () => {
      const shell = createPowerShell({ executable: pwsh, timeoutMs: 8000 });
      await closing(shell, async () => {
        // A process start under load is bounded separately; this test is about the queue.
        await shell.warmUp({ timeoutMs: 120_000 });
        // Together they take longer than the limit; each alone fits well inside it.
        const results = await Promise.all([
          shell.run(sleep, { Ms: 5000 }),
          shell.run(sleep, { Ms: 5000 }),
        ]);
        expect(results).toEqual(["slept", "slept"]);
      });
    });

    it("bounds a process start and the script each by the limit, not both together", async () => {
      // The module sleeps while it is imported, as a slow Storage import would.
      const dir = mkdtempSync(join(tmpdir(), "csi-slow-start-"));
      const module = join(dir, "SlowStart.psm1");
      writeFileSync(module, "Start-Sleep -Milliseconds 8000\n");
      // Start (over 8 s) and script (14 s) each fit in 20 s; together they do not.
      const shell = createPowerShell({ executable: pwsh, timeoutMs: 20_000, modules: [module] });
      try {
        await closing(shell, async () => {
          expect(await shell.run(sleep, { Ms: 14_000 })).toBe("slept");
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it("counts a caller's timeoutMs from run(), and a call that times out queued never ran", async () => {
      const shell = createPowerShell({ executable: pwsh });
      await closing(shell, async () => {
        const holder = await shell.run<number>(pid);
        const running = shell.run(sleep, { Ms: 1500 });
        const queued = shell.run(pid, {}, { timeoutMs: 100 });
        await expect(queued).rejects.toMatchObject({
          code: "TIMEOUT",
          message: expect.stringContaining("never ran") as string,
        });
        // The running call was not disturbed, and its process still serves.
        expect(await running).toBe("slept");
        expect(await shell.run<number>(pid)).toBe(holder);
      });
    });
  });
});
