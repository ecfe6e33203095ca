import { describe, expect, it, vi } from "vitest";
import { isWindowsPowerShell, resolveConfig } from "../src/config.js";
import { currentSystem, type HostSystem } from "../src/executable.js";

/** This machine, as Linux. */
const linux = (): HostSystem => ({ ...currentSystem(), platform: "linux" });

/** A 64-bit Windows host with Windows PowerShell in its usual place. */
const windows = (env: Record<string, string> = {}): HostSystem => ({
  platform: "win32",
  arch: "x64",
  env: { SystemRoot: "C:\\Windows", ...env },
  isFile: (path) => path === "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
});

describe("resolveConfig", () => {
  it("defaults to Windows PowerShell by absolute path on Windows and pwsh elsewhere", () => {
    expect(resolveConfig({}, windows()).executable).toBe(
      "C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe",
    );
    expect(resolveConfig({}, linux()).executable).toBe("pwsh");
  });

  it("uses session mode, one process and bounded defaults", () => {
    const config = resolveConfig({}, linux());
    expect(config).toMatchObject({
      mode: "session",
      poolSize: 1,
      timeoutMs: 120_000,
      idleTimeoutMs: 30_000,
      keepWarm: 0,
      depth: 24,
    });
  });

  it("passes no caller data on the command line, only the fixed bootstrap", () => {
    const args = resolveConfig({ env: { X: "$(evil)" }, modules: ["/m.psm1"] }, linux()).args;
    expect(args.slice(0, 3)).toEqual(["-NoLogo", "-NoProfile", "-NonInteractive"]);
    expect(args.join(" ")).not.toMatch(/evil|m\.psm1/);
    expect(args.at(-2)).toBe("-Command");
  });

  it("strips an inherited PSModulePath for Windows PowerShell only", () => {
    vi.stubEnv("PSModulePath", "C:\\Program Files\\PowerShell\\7\\Modules");
    const inherited = { PSModulePath: "C:\\Program Files\\PowerShell\\7\\Modules" };
    expect(resolveConfig({}, windows(inherited)).env.PSModulePath).toBeUndefined();
    expect(resolveConfig({ executable: "pwsh" }, linux()).env.PSModulePath).toBe(
      "C:\\Program Files\\PowerShell\\7\\Modules",
    );
  });

  it("starts every PowerShell on Windows in the MTA, pwsh 7 too (it defaults to the STA there)", () => {
    expect(resolveConfig({}, windows()).args).toContain("-Mta");
    expect(resolveConfig({ executable: "pwsh.exe" }, windows()).args).toContain("-Mta");
    // pwsh elsewhere refuses -Mta ("MTANotImplemented").
    expect(resolveConfig({}, linux()).args).not.toContain("-Mta");
  });

  it("merges env additions over the inherited environment", () => {
    vi.stubEnv("CSI_TEST_INHERITED", "1");
    const env = resolveConfig({ env: { CSI_TEST_ADDED: "2" } }, linux()).env;
    expect(env).toMatchObject({
      CSI_TEST_INHERITED: "1",
      CSI_TEST_ADDED: "2",
      POWERSHELL_TELEMETRY_OPTOUT: "1",
    });
  });

  it("turns .NET's dynamic PGO off unless the operator or the env option set it", () => {
    expect(resolveConfig({}, linux()).env.DOTNET_TieredPGO).toBe("0");
    expect(resolveConfig({ env: { DOTNET_TieredPGO: "1" } }, linux()).env.DOTNET_TieredPGO).toBe(
      "1",
    );
    vi.stubEnv("DOTNET_TIEREDPGO", "1");
    const env = resolveConfig({}, linux()).env;
    expect(env.DOTNET_TIEREDPGO).toBe("1");
    expect(env.DOTNET_TieredPGO).toBeUndefined();
  });

  it.each([
    [{ poolSize: 0 }, /poolSize/],
    [{ poolSize: 1.5 }, /poolSize/],
    [{ timeoutMs: -1 }, /timeoutMs/],
    [{ depth: 200 }, /depth/],
    [{ mode: "fork" as never }, /mode/],
    [{ executable: " " }, /executable/],
    [{ modules: [""] }, /modules/],
    [{ keepWarm: -1 }, /keepWarm/],
    [{ keepWarm: 2 }, /cannot exceed poolSize/],
    [{ keepWarm: 1, mode: "spawn" as const }, /needs mode "session"/],
  ])("rejects %o", (options, message) => {
    expect(() => resolveConfig(options, linux())).toThrow(message);
  });

  it("recognises Windows PowerShell by file name", () => {
    expect(isWindowsPowerShell("powershell")).toBe(true);
    expect(isWindowsPowerShell("C:\\x\\PowerShell.EXE")).toBe(true);
    expect(isWindowsPowerShell("pwsh")).toBe(false);
    expect(isWindowsPowerShell("/opt/powershell-tools/pwsh")).toBe(false);
  });
});
