import { isScript } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import {
  createPowerShellSystemHost,
  isCsiProxyError,
  System,
  systemScripts,
} from "../src/index.js";
import { powerShellError } from "./fake-host.js";
import { FakeShell } from "./fake-shell.js";

async function code(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    return isCsiProxyError(error) ? error.code : "not a CsiProxyError";
  }
  return "resolved";
}

const waitResult = { status: 4, startType: 2, requested: true, timedOut: false };

describe("PowerShell-backed host: scripts and parameters", () => {
  it("reads the BIOS serial with the biosSerialNumber script and no parameters", async () => {
    const shell = new FakeShell().answer("system.biosSerialNumber", { serialNumber: " 1234 " });
    expect(await createPowerShellSystemHost(shell).getBiosSerialNumber()).toBe(" 1234 ");
    const run = shell.runs[0]!;
    expect(isScript(run.script)).toBe(true);
    expect(run.script).toBe(systemScripts.biosSerialNumber);
    expect(run.script.text).toContain("Get-CimInstance -ClassName Win32_BIOS");
    expect(run.params).toBeUndefined();
  });

  it("reads a service with Name as a parameter, never in the text", async () => {
    const shell = new FakeShell().answer("system.getService", {
      name: "MSiSCSI",
      displayName: "Microsoft iSCSI Initiator Service",
      status: 1,
      startType: 3,
    });
    const service = await createPowerShellSystemHost(shell).getService("msiscsi");
    expect(service).toEqual({
      name: "MSiSCSI",
      displayName: "Microsoft iSCSI Initiator Service",
      status: 1,
      startType: 3,
    });
    expect(shell.runs[0]?.script).toBe(systemScripts.getService);
    expect(shell.runs[0]?.params).toEqual({ Name: "msiscsi" });
    expect(shell.runs[0]?.script.text).not.toContain("msiscsi");
  });

  it("walks dependents with the dependents script and parses its edges", async () => {
    const shell = new FakeShell().answer("system.dependents", {
      name: "A",
      status: 4,
      dependents: [
        { parent: "A", name: "B", status: 4 },
        { parent: "B", name: "C", status: 1 },
      ],
    });
    expect(await createPowerShellSystemHost(shell).getDependencies("a")).toEqual({
      name: "A",
      status: 4,
      dependents: [
        { parent: "A", name: "B", status: 4 },
        { parent: "B", name: "C", status: 1 },
      ],
    });
    expect(shell.runs[0]?.params).toEqual({ Name: "a" });
  });

  it.each([
    ["startService", "system.startService"],
    ["stopService", "system.stopService"],
  ] as const)(
    "%s passes the deadline and poll as parameters and kills the process 10 s after it",
    async (method, scriptName) => {
      const shell = new FakeShell().answer(scriptName, waitResult);
      const host = createPowerShellSystemHost(shell);
      expect(await host[method]("svc", { timeoutMs: 5_000, pollMs: 200 })).toEqual(waitResult);
      expect(shell.runs[0]?.script.name).toBe(scriptName);
      expect(shell.runs[0]?.params).toEqual({ Name: "svc", TimeoutMs: 5_000, PollMs: 200 });
      expect(shell.runs[0]?.options).toEqual({ timeoutMs: 15_000 });
    },
  );

  it("refuses a wildcard name itself, without running anything", async () => {
    const shell = new FakeShell();
    const host = createPowerShellSystemHost(shell);
    expect(await code(host.getService("*"))).toBe("INVALID_ARGUMENT");
    expect(await code(host.getDependencies("a?"))).toBe("INVALID_ARGUMENT");
    expect(await code(host.startService("[a]", { timeoutMs: 1, pollMs: 1 }))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(await code(host.stopService("", { timeoutMs: 1, pollMs: 1 }))).toBe("INVALID_ARGUMENT");
    expect(shell.runs).toEqual([]);
  });
});

describe("PowerShell-backed host: narrowing results", () => {
  it("reads no BIOS instance or a null serial as null", async () => {
    const shell = new FakeShell().answer("system.biosSerialNumber", undefined, {
      serialNumber: null,
    });
    const host = createPowerShellSystemHost(shell);
    expect(await host.getBiosSerialNumber()).toBeNull();
    expect(await host.getBiosSerialNumber()).toBeNull();
  });

  it("keeps a null StartType as null", async () => {
    const shell = new FakeShell().answer("system.getService", {
      name: "x",
      displayName: "X",
      status: 4,
      startType: null,
    });
    expect((await createPowerShellSystemHost(shell).getService("x")).startType).toBeNull();
  });

  it.each([
    ["biosSerialNumber", "getBiosSerialNumber", [[1], "serial", { serialNumber: 5 }]],
    [
      "getService",
      "getService",
      [
        undefined,
        [],
        { name: "x", displayName: "X", status: "Running", startType: 2 },
        { name: "x", displayName: "X", status: 4 },
        { name: "x", status: 4, startType: 2 },
        { name: "x", displayName: "X", status: 4.5, startType: 2 },
        [
          { name: "a", displayName: "A", status: 4, startType: 2 },
          { name: "b", displayName: "B", status: 4, startType: 2 },
        ],
      ],
    ],
    [
      "dependents",
      "getDependencies",
      [
        undefined,
        { name: "A", status: 4 },
        { name: "A", status: 4, dependents: { value: [], Count: 0 } },
        { name: "A", status: 4, dependents: [{ parent: "A", name: "B" }] },
        { name: "A", status: 4, dependents: ["B"] },
        { status: 4, dependents: [] },
      ],
    ],
    [
      "startService",
      "startService",
      [
        undefined,
        { status: 4, startType: 2, requested: "yes", timedOut: false },
        { status: null, startType: 2, requested: true, timedOut: false },
        { status: 4, startType: 2, requested: true },
        { status: 4, requested: true, timedOut: false },
      ],
    ],
    ["stopService", "stopService", [undefined, 1, { status: 1, startType: 2, requested: false }]],
  ] as const)("%s: a malformed answer is PARSE_FAILED", async (script, method, answers) => {
    for (const answer of answers) {
      const shell = new FakeShell().answer(`system.${script}`, answer);
      const host = createPowerShellSystemHost(shell);
      const call =
        method === "getBiosSerialNumber"
          ? host.getBiosSerialNumber()
          : method === "startService" || method === "stopService"
            ? host[method]("svc", { timeoutMs: 10, pollMs: 1 })
            : host[method]("svc");
      expect(await code(call), JSON.stringify(answer)).toBe("PARSE_FAILED");
    }
  });
});

describe("System on the PowerShell-backed host", () => {
  it("maps the real NoServiceFoundForGivenName record to NOT_FOUND", async () => {
    const shell = new FakeShell().answer(
      "system.getService",
      powerShellError(
        "NoServiceFoundForGivenName,Microsoft.PowerShell.Commands.GetServiceCommand",
        "Cannot find any service with service name 'msisci'.",
      ),
    );
    const error = await new System({ shell })
      .getService({ name: "msisci" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "NOT_FOUND",
      name: "ServiceNotFoundError",
      serviceName: "msisci",
    });
  });

  it("maps the real ServiceHasDependentServices record to FAILED_PRECONDITION", async () => {
    const shell = new FakeShell().answer(
      "system.stopService",
      powerShellError(
        "ServiceHasDependentServices,Microsoft.PowerShell.Commands.StopServiceCommand",
      ),
    );
    const error = await new System({ shell })
      .stopService({ name: "spooler" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "FAILED_PRECONDITION", name: "ServiceHasDependentsError" });
  });

  it("keeps COMMAND_FAILED for other records, such as CouldNotStartService", async () => {
    const shell = new FakeShell().answer(
      "system.startService",
      powerShellError(
        "CouldNotStartService,Microsoft.PowerShell.Commands.StartServiceCommand",
        "boom",
      ),
    );
    const error = await new System({ shell })
      .startService({ name: "svc" })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "COMMAND_FAILED",
      message: "startService(svc) failed: boom",
    });
  });

  it("stops with force in one walk plus one script per service, deepest first", async () => {
    const stoppedResult = { status: 1, startType: 3, requested: true, timedOut: false };
    const shell = new FakeShell()
      .answer("system.dependents", {
        name: "A",
        status: 4,
        dependents: [
          { parent: "A", name: "B", status: 4 },
          { parent: "B", name: "C", status: 4 },
        ],
      })
      .answer("system.stopService", stoppedResult, stoppedResult, stoppedResult);
    await new System({ shell }).stopService({ name: "A", force: true });
    expect(shell.runs.map((r) => [r.script.name, r.params?.Name])).toEqual([
      ["system.dependents", "A"],
      ["system.stopService", "C"],
      ["system.stopService", "B"],
      ["system.stopService", "A"],
    ]);
  });

  it("reports a script that gave up at its deadline as TIMEOUT", async () => {
    const shell = new FakeShell().answer("system.stopService", {
      status: 3,
      startType: 3,
      requested: true,
      timedOut: true,
    });
    const error = await new System({ shell })
      .stopService({ name: "svc", timeoutMs: 500 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "TIMEOUT", lastStatus: "STOP_PENDING" });
  });

  it("closes only a shell it created", async () => {
    const shell = new FakeShell();
    await new System({ shell }).close();
    expect(shell.closed).toBe(false);
  });
});
