import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describeWithPwsh, isRunning, waitFor } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";

const fixture = fileURLToPath(new URL("fixtures/lifecycle.mjs", import.meta.url));

function runFixture(
  pwsh: string,
  scenario: string,
): Promise<{ pid: number; exitCode: number | null; signal: string | null }> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [fixture, pwsh, scenario],
      { timeout: 30_000 },
      (error, stdout) => {
        const pid = Number(stdout.trim().split("\n")[0]);
        if (!Number.isInteger(pid) || pid <= 0)
          reject(error ?? new Error(`no pid printed: ${stdout}`));
        else resolve({ pid, exitCode: child.exitCode, signal: child.signalCode });
      },
    );
  });
}

describeWithPwsh("process lifecycle", (pwsh) => {
  it("an idle session does not keep Node alive, and its process ends with it", async () => {
    const { pid, exitCode } = await runFixture(pwsh, "idle");
    expect(exitCode).toBe(0);
    expect(await waitFor(() => !isRunning(pid))).toBe(true);
  });

  it("a busy PowerShell does not outlive a parent that exits", async () => {
    const { pid, exitCode } = await runFixture(pwsh, "busy-exit");
    expect(exitCode).toBe(0);
    expect(await waitFor(() => !isRunning(pid))).toBe(true);
  });

  it("a busy PowerShell does not outlive a parent killed by SIGTERM", async () => {
    const { pid, signal } = await runFixture(pwsh, "busy-sigterm");
    expect(signal).toBe("SIGTERM");
    expect(await waitFor(() => !isRunning(pid))).toBe(true);
  });

  it("an idle PowerShell exits when its parent is SIGKILLed (stdin closes)", async () => {
    const { pid, signal } = await runFixture(pwsh, "idle-sigkill");
    expect(signal).toBe("SIGKILL");
    expect(await waitFor(() => !isRunning(pid))).toBe(true);
  });
});
