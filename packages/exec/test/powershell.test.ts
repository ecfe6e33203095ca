import { subscribe, unsubscribe } from "node:diagnostics_channel";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { inspect as show } from "node:util";
import { join } from "node:path";
import { childPids, describeWithPwsh, waitFor } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createPowerShell,
  execChannels,
  isCsiProxyError,
  ps,
  type ExecErrorEvent,
  type ExecMode,
  type PowerShell,
  type PowerShellError,
} from "../src/index.js";
import { hostileValues } from "./hostile.js";

/** The error a call must fail with. */
async function failure(call: Promise<unknown>): Promise<PowerShellError> {
  try {
    await call;
  } catch (error) {
    return error as PowerShellError;
  }
  throw new Error("expected the call to fail");
}

const echo = ps("test.echo")`param($Value) , $Value`;
const leaked = ps("test.leaked")`
$names = 'line', 'f', 'i', 'o', 'p', 'name', 'key', 'block', 'out', 'splat', 'id', 'init', 'module', 'record', 'reply', 'request', 'response', 'declared'
$names | Where-Object { $null -ne (Get-Variable -Name $_ -ValueOnly -ErrorAction SilentlyContinue) }
`;
const itemOf = ps("test.item")`param([string]$Path) Get-Item -LiteralPath $Path`;
const mixed = ps("test.mixed")`
param([string]$A, [string]$B, $N, $F, $Z, [string]$C)
[pscustomobject]@{ a = $A; b = $B; n = $N; f = $F; z = ($null -eq $Z); c = $C; bound = @($PSBoundParameters.Keys | Sort-Object) }
`;
const inspect = ps("test.inspect")`
param([string[]]$Values)
foreach ($v in $Values) {
    [pscustomobject]@{ b64 = [Convert]::ToBase64String((New-Object System.Text.UTF8Encoding $false).GetBytes($v)); length = $v.Length }
}
`;
const count = ps(
  "test.count",
)`param([int]$N) if ($N -gt 0) { 1..$N | ForEach-Object { [pscustomobject]@{ i = $_ } } }`;
const nested = ps("test.nested")`
param($Input1)
[pscustomobject]@{ echo = $Input1; deep = @{ a = @{ b = @{ c = @{ d = @(1, @(2, 3), @{ e = 'f' }) } } } }; empty = @(); one = @(7); nothing = $null }
`;
const bigNumbers = ps(
  "test.big",
)`param([uint64]$Size) [pscustomobject]@{ max = [uint64]::MaxValue; echoed = $Size; plus = $Size + 1; safe = 9007199254740991 }`;
const failing = ps("test.failing")`Get-Item -LiteralPath '/definitely/not/here'`;
const nonTerminating = ps(
  "test.nonterminating",
)`Write-Error -Message 'soft failure' -ErrorId 'Soft,Test' -Category ResourceUnavailable; 'after'`;
const thrown = ps("test.thrown")`param($Password) throw ('bad password ' + $Password)`;
const noisy = ps("test.noisy")`
Write-Warning 'a warning'
Write-Verbose 'verbose' -Verbose
Write-Information 'info'
Write-Host 'host text'
Write-Progress -Activity 'working' -Status 'half' -PercentComplete 50
Write-Debug 'debug'
[Console]::Out.WriteLine('raw console line')
'result'
`;
const sleep = ps("test.sleep")`param([int]$Ms) Start-Sleep -Milliseconds $Ms; 'slept'`;
const pid = ps("test.pid")`$PID`;
const exitProcess = ps("test.exit")`[Environment]::Exit(3)`;
const garbageFrame = ps("test.garbage")`param([string]$Tag) [Console]::Out.WriteLine($Tag); 'ok'`;
const envRead = ps("test.env")`$env:CSI_TEST_ADDED`;

describeWithPwsh("PowerShell against real pwsh", (pwsh) => {
  describe.each<ExecMode>(["session", "spawn"])("%s mode", (mode) => {
    let shell: PowerShell;
    let dir: string;
    let canary: string;

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "csi-exec-"));
      canary = join(dir, "canary");
      shell = createPowerShell({
        executable: pwsh,
        mode,
        poolSize: 2,
        env: { CSI_TEST_ADDED: "from-env" },
      });
    });

    afterAll(async () => {
      await shell.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it("round-trips hostile values byte-exact and executes none of them", async () => {
      const values = hostileValues(canary);
      const seen = await shell.run<{ b64: string; length: number }[]>(inspect, { Values: values });
      expect(seen).toHaveLength(values.length);
      seen.forEach((item, i) => {
        expect(item.b64, `value ${i}`).toBe(
          Buffer.from(values[i] ?? "", "utf8").toString("base64"),
        );
      });
      for (const value of values.slice(0, 6))
        expect(await shell.run(echo, { Value: value })).toBe(value);
      expect(existsSync(canary)).toBe(false);
    });

    it("binds strings (empty ones too) and other values to the right parameters", async () => {
      expect(
        await shell.run(mixed, { A: "", B: " two  words ", N: 5, F: false, Z: null, C: "=-/+ -" }),
      ).toEqual({
        a: "",
        b: " two  words ",
        n: 5,
        f: false,
        z: true,
        c: "=-/+ -",
        bound: ["A", "B", "C", "F", "N", "Z"],
      });
    });

    it("returns a provider's object itself, not the drive and provider PowerShell hangs on it", async () => {
      // At depth 24 those members (PSDrive, PSProvider) reach most of the session: gigabytes of JSON.
      const file = join(dir, "item.txt");
      writeFileSync(file, "x");
      const item = await shell.run<{ Name: string; Length: number }>(
        itemOf,
        { Path: file },
        { timeoutMs: 30_000 },
      );
      expect(item).toMatchObject({ Name: "item.txt", Length: 1 });
      expect(JSON.stringify(item).length).toBeLessThan(200_000);
    });

    it("lets no host-loop variable show through under a name a script would use", async () => {
      await shell.run(mixed, { A: "a", B: "b", N: 1, F: true, Z: null, C: "c" });
      expect(await shell.run(leaked)).toBeUndefined();
    });

    it("returns nothing, one object or many exactly as the script wrote them", async () => {
      expect(await shell.run(count, { N: 0 })).toBeUndefined();
      expect(await shell.run(count, { N: 1 })).toEqual({ i: 1 });
      expect(await shell.run(count, { N: 3 })).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
      expect(await shell.run(echo, { Value: ["only"] })).toEqual(["only"]);
      expect(await shell.run(echo, { Value: [] })).toEqual([]);
    });

    it("carries nested objects both ways", async () => {
      const input = { name: "n", list: [1, "two", { three: [3] }], flag: false, none: null };
      expect(await shell.run(nested, { Input1: input })).toEqual({
        echo: input,
        deep: { a: { b: { c: { d: [1, [2, 3], { e: "f" }] } } } },
        empty: [],
        one: [7],
        nothing: null,
      });
    });

    it("keeps 64-bit integers exact", async () => {
      expect(await shell.run(bigNumbers, { Size: 2n ** 63n + 5n })).toEqual({
        max: 2n ** 64n - 1n,
        echoed: 2n ** 63n + 5n,
        plus: 2n ** 63n + 6n,
        safe: 9007199254740991,
      });
    });

    it("turns a failing cmdlet into COMMAND_FAILED with the error record", async () => {
      const error = await failure(shell.run(failing));
      expect(isCsiProxyError(error)).toBe(true);
      expect(error).toMatchObject({
        code: "COMMAND_FAILED",
        scriptName: "test.failing",
        mode,
        record: {
          fullyQualifiedErrorId: "PathNotFound,Microsoft.PowerShell.Commands.GetItemCommand",
          category: "ObjectNotFound",
        },
      });
      expect(error.record?.exceptionChain[0]).toBe(
        "System.Management.Automation.ItemNotFoundException",
      );
    });

    it("stops at a non-terminating error instead of running on", async () => {
      const error = await failure(shell.run(nonTerminating));
      expect(error.code).toBe("COMMAND_FAILED");
      expect(error.record).toMatchObject({
        message: "soft failure",
        category: "ResourceUnavailable",
      });
      expect(error.record?.fullyQualifiedErrorId).toMatch(/^Soft,Test/);
    });

    it("keeps warnings, progress and host output off the result", async () => {
      expect(await shell.run(noisy)).toBe("result");
      expect(await shell.run(envRead)).toBe("from-env");
    });

    it("kills a call that runs past its timeout", async () => {
      const error = await failure(shell.run(sleep, { Ms: 60_000 }, { timeoutMs: 1500 }));
      expect(error).toMatchObject({ code: "TIMEOUT", timedOut: true });
      expect(await shell.run(echo, { Value: "after timeout" })).toBe("after timeout");
    });

    it("aborts a running call and a call that never started", async () => {
      const controller = new AbortController();
      const running = shell.run(sleep, { Ms: 60_000 }, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error("stop")), 300);
      await expect(running).rejects.toMatchObject({ code: "ABORTED" });
      await expect(
        shell.run(echo, { Value: 1 }, { signal: AbortSignal.abort() }),
      ).rejects.toMatchObject({ code: "ABORTED" });
      expect(await shell.run(echo, { Value: "after abort" })).toBe("after abort");
    });

    it("reports a process that exits mid-call, then recovers", async () => {
      const error = await failure(shell.run(exitProcess));
      expect(error).toMatchObject({ code: "PROCESS_EXITED", exitCode: 3 });
      expect(await shell.run(echo, { Value: "recovered" })).toBe("recovered");
    });

    it("redacts secrets from errors and diagnostics", async () => {
      const events: ExecErrorEvent[] = [];
      const listener = (message: unknown) => events.push(message as ExecErrorEvent);
      subscribe(execChannels.error, listener);
      try {
        const error = await failure(shell.run(thrown, { Password: "hunter2'x" }));
        expect(error.code).toBe("COMMAND_FAILED");
        const serialised = show({ error, events }, { depth: null });
        expect(serialised).not.toContain("hunter2");
        expect(error.message).toContain("[REDACTED]");
        expect(events.at(-1)?.params).toEqual({ Password: "[REDACTED]" });
      } finally {
        unsubscribe(execChannels.error, listener);
      }
    });

    it("rejects unknown parameters and non-scripts before running anything", async () => {
      await expect(shell.run(echo, { Nope: 1 })).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
      await expect(shell.run("Get-Process" as never)).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
      await expect(shell.run(echo, { Value: Number.NaN })).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
    });
  });

  describe("session mode", () => {
    it("answers 100 concurrent calls on a pool, each with its own value", async () => {
      const shell = createPowerShell({ executable: pwsh, poolSize: 4 });
      try {
        const values = Array.from({ length: 100 }, (_, i) => `value-${i}-\u00e9`);
        const results = await Promise.all(values.map((value) => shell.run(echo, { Value: value })));
        expect(results).toEqual(values);
        const pids = new Set(
          await Promise.all(Array.from({ length: 8 }, () => shell.run<number>(pid))),
        );
        expect(pids.size).toBeLessThanOrEqual(4);
      } finally {
        await shell.close();
      }
    });

    it("recovers after its process is killed from outside mid-call", async () => {
      const shell = createPowerShell({ executable: pwsh });
      try {
        const victim = await shell.run<number>(pid);
        const call = shell.run(sleep, { Ms: 30_000 });
        await new Promise((resolve) => setTimeout(resolve, 300));
        process.kill(victim, "SIGKILL");
        await expect(call).rejects.toMatchObject({ code: "PROCESS_EXITED" });
        const next = await shell.run<number>(pid);
        expect(next).not.toBe(victim);
      } finally {
        await shell.close();
      }
    });

    it("fails only the call whose channel carried a forged frame", async () => {
      const shell = createPowerShell({ executable: pwsh });
      try {
        // Lines that merely look like frames are noise: the real tag is random per process.
        expect(await shell.run(garbageFrame, { Tag: "csi0000 1 AAAA" })).toBe("ok");
      } finally {
        await shell.close();
      }
    });

    it("leaves no child process behind after close(), even with calls in flight", async () => {
      const before = new Set(childPids());
      const shell = createPowerShell({ executable: pwsh, poolSize: 3 });
      await Promise.all([shell.run(pid), shell.run(pid), shell.run(pid)]);
      const pending = [1, 2, 3, 4].map(() =>
        shell.run(sleep, { Ms: 30_000 }).catch((e: unknown) => e),
      );
      expect(childPids().filter((p) => !before.has(p))).toHaveLength(3);
      await shell.close();
      for (const outcome of await Promise.all(pending))
        expect(outcome).toMatchObject({ code: "ABORTED" });
      expect(await waitFor(() => childPids().every((p) => before.has(p)))).toBe(true);
      await expect(shell.run(pid)).rejects.toMatchObject({ code: "ABORTED" });
    });

    it("closes idle processes after idleTimeoutMs", async () => {
      const before = new Set(childPids());
      const shell = createPowerShell({ executable: pwsh, idleTimeoutMs: 300 });
      try {
        const worker = await shell.run<number>(pid);
        expect(childPids()).toContain(worker);
        expect(await waitFor(() => !childPids().includes(worker))).toBe(true);
        expect(await shell.run<number>(pid)).not.toBe(worker);
      } finally {
        await shell.close();
      }
      expect(await waitFor(() => childPids().every((p) => before.has(p)))).toBe(true);
    });

    it("never hands a call to a process that is closing for idleness", async () => {
      const shell = createPowerShell({ executable: pwsh, idleTimeoutMs: 40 });
      try {
        for (let i = 0; i < 12; i++) {
          expect(await shell.run(echo, { Value: i })).toBe(i);
          // Land the next call around the moment the idle process is being closed.
          await new Promise((resolve) => setTimeout(resolve, 30 + (i % 4) * 5));
        }
      } finally {
        await shell.close();
      }
    });

    it("reports a module that cannot load as the failure of the call", async () => {
      const shell = createPowerShell({ executable: pwsh, modules: ["/no/such/module.psm1"] });
      try {
        await expect(shell.run(echo, { Value: 1 })).rejects.toMatchObject({
          code: "COMMAND_FAILED",
          message: /could not start/,
        });
      } finally {
        await shell.close();
      }
    });
  });

  it("reports a missing executable as EXECUTABLE_NOT_FOUND in both modes", async () => {
    for (const mode of ["session", "spawn"] as const) {
      const shell = createPowerShell({ executable: "/no/such/pwsh", mode });
      await expect(shell.run(echo, { Value: 1 })).rejects.toMatchObject({
        code: "EXECUTABLE_NOT_FOUND",
      });
      await shell.close();
    }
  });
});

describe("a PowerShell ended by a signal from outside", () => {
  const scratch = mkdtempSync(join(tmpdir(), "exec-signal-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  // A Ctrl-C reaches every process of the terminal's group, and a process still starting is in
  // that group until it detaches (setsid after fork): this one receives the signal as it starts.
  it.each(
    ["SIGINT", "SIGTERM", "SIGHUP"].flatMap((signal) => [
      [signal, "session"] as const,
      [signal, "spawn"] as const,
    ]),
  )("%s, %s mode: ABORTED, not PROCESS_EXITED", async (signal, mode) => {
    const executable = join(scratch, `${signal}-${mode}`);
    writeFileSync(executable, `#!/bin/sh\nkill -${signal.slice(3)} $$\nsleep 30\n`, {
      mode: 0o755,
    });
    const shell = createPowerShell({ executable, mode });
    try {
      const error = await failure(shell.run(echo, { Value: 1 }));
      expect(error).toMatchObject({ code: "ABORTED", signal });
      expect(error.message).toBe(
        `test.echo was aborted: its PowerShell process was ended by ${signal} from outside.`,
      );
    } finally {
      await shell.close();
    }
  });
});
