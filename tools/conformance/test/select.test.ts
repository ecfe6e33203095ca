import { describe, expect, it } from "vitest";
import { disposableConsent, selectHost, SelectionError } from "../src/select.js";

describe("choosing the host", () => {
  it("defaults to the simulator", () => {
    expect(selectHost({}, "linux")).toMatchObject({ kind: "simulator", executable: undefined });
  });

  it("refuses Windows unless the machine is declared disposable, and says why", () => {
    const run = (env: NodeJS.ProcessEnv) => () =>
      selectHost({ CSI_CONFORMANCE_HOST: "windows", ...env }, "win32");
    expect(run({})).toThrow(SelectionError);
    expect(run({})).toThrow(
      /disposable machine.*CSI_CONFORMANCE_DISPOSABLE=yes-destroy-this-machine/s,
    );
    expect(run({ CSI_CONFORMANCE_DISPOSABLE: "yes" })).toThrow(/formats virtual disks/);
    expect(run({ CSI_CONFORMANCE_DISPOSABLE: disposableConsent })()).toMatchObject({
      kind: "windows",
      portalAddress: "localhost",
      stoppableService: "Spooler",
    });
  });

  it("refuses Windows on another platform and an unknown host kind", () => {
    const env = { CSI_CONFORMANCE_HOST: "windows", CSI_CONFORMANCE_DISPOSABLE: disposableConsent };
    expect(() => selectHost(env, "linux")).toThrow(/runs only on Windows/);
    expect(() => selectHost({ CSI_CONFORMANCE_HOST: "mac" }, "linux")).toThrow(
      /"simulator" \(default\) or "windows"/,
    );
  });

  it("takes the PowerShell executable from CSI_CONFORMANCE_POWERSHELL (the pwsh 7 matrix entry)", () => {
    const env = {
      CSI_CONFORMANCE_HOST: "windows",
      CSI_CONFORMANCE_DISPOSABLE: disposableConsent,
      CSI_CONFORMANCE_POWERSHELL: "pwsh.exe",
    };
    expect(selectHost(env, "win32").executable).toBe("pwsh.exe");
  });
});
