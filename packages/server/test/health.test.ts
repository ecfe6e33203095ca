// /readyz's checks with a PowerShell that cannot start, and what a flood of probes costs.
import { createServer } from "node:net";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CsiProxyError, type PowerShell } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { readiness, readinessText } from "../src/health.js";
import { silentLogger } from "../src/logging/logger.js";

function shell(warmUp: () => Promise<void>, busy = 0): PowerShell {
  return {
    mode: "session",
    run: () => Promise.reject(new Error("not here")),
    warmUp,
    close: () => Promise.resolve(),
    stats: () => ({ busy, idle: 0, queued: 0 }),
  };
}

async function listening(): Promise<{ path: string; close: () => void }> {
  const path = join(mkdtempSync(join(tmpdir(), "csi-health-")), "s");
  const server = createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { path, close: () => server.close() };
}

describe("readiness", () => {
  it("is not ready while PowerShell cannot start, and says only the error's code", async () => {
    const endpoint = await listening();
    const missing = new CsiProxyError("powershell.exe was not found at C:\\secret\\path", {
      code: "EXECUTABLE_NOT_FOUND",
    });
    const ready = readiness({
      endpoints: () => ({ "disk-v1": endpoint.path }),
      shell: shell(() => Promise.reject(missing)),
      auditHealthy: () => true,
      log: silentLogger,
    });
    expect(readinessText(await ready())).toEqual({
      ready: false,
      text: "[+]endpoints ok\n[-]powershell failed: could not start (EXECUTABLE_NOT_FOUND)\n[+]audit-log ok\nreadyz check failed\n",
    });
    endpoint.close();
  });

  it("takes a busy process as proof that PowerShell starts, and reports the endpoints not yet listening", async () => {
    let probes = 0;
    const ready = readiness({
      endpoints: () => undefined,
      shell: shell(() => {
        probes += 1;
        return Promise.resolve();
      }, 1),
      auditHealthy: () => false,
      log: silentLogger,
    });
    expect(readinessText(await ready()).text).toBe(
      "[-]endpoints failed: not listening yet\n[+]powershell ok\n[-]audit-log failed: cannot write\nreadyz check failed\n",
    );
    expect(probes).toBe(0);
  });

  it("runs one check for a flood of requests, and reuses a result for 2 s", async () => {
    const endpoint = await listening();
    let probes = 0;
    let release: () => void = () => undefined;
    const ready = readiness({
      endpoints: () => ({ "disk-v1": endpoint.path }),
      shell: shell(() => {
        probes += 1;
        return new Promise<void>((resolve) => (release = resolve));
      }),
      auditHealthy: () => true,
      log: silentLogger,
    });
    const flood = Array.from({ length: 50 }, () => ready());
    await expect.poll(() => probes).toBe(1);
    release();
    const results = await Promise.all(flood);
    expect(new Set(results).size).toBe(1);
    expect(readinessText(await ready()).ready).toBe(true);
    expect(probes).toBe(1);
    endpoint.close();
  });
});
