import { describeWithPwsh, waitFor } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { createPowerShell, ps, type PowerShellStats } from "../src/index.js";

const sleep = ps("test.stats.sleep")`param([int]$Ms) Start-Sleep -Milliseconds $Ms; 'slept'`;

describeWithPwsh("stats(): how busy the pool is, for a server's gauges", (pwsh) => {
  it("counts busy and idle processes and the calls waiting for one", async () => {
    const shell = createPowerShell({ executable: pwsh, poolSize: 2, keepWarm: 2 });
    const stats = (): PowerShellStats | undefined => shell.stats?.();
    try {
      expect(stats()).toEqual({ busy: 0, idle: 0, queued: 0 });
      await shell.warmUp();
      expect(stats()).toEqual({ busy: 0, idle: 2, queued: 0 });
      const calls = [1, 2, 3].map(() => shell.run(sleep, { Ms: 1500 }));
      expect(await waitFor(() => stats()?.busy === 2)).toBe(true);
      expect(stats()).toEqual({ busy: 2, idle: 0, queued: 1 });
      await Promise.all(calls);
      expect(stats()).toEqual({ busy: 0, idle: 2, queued: 0 });
    } finally {
      await shell.close();
    }
  });

  it("in spawn mode counts each call in flight as a busy process", async () => {
    const shell = createPowerShell({ executable: pwsh, mode: "spawn" });
    try {
      const call = shell.run(sleep, { Ms: 800 });
      expect(shell.stats?.()).toEqual({ busy: 1, idle: 0, queued: 0 });
      await call;
      expect(shell.stats?.()).toEqual({ busy: 0, idle: 0, queued: 0 });
    } finally {
      await shell.close();
    }
  });
});
