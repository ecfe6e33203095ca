import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { serviceStatusAt, type ServiceSpec, type SimState, type Simulator } from "../src/index.js";
import { failure, useHost } from "./host.js";

const getService = ps("winsim.test.getService")`
  param([string]$Name)
  $s = Get-Service -Name $Name
  [pscustomobject]@{
    Json = ($s | Select-Object DisplayName, Status, StartType | ConvertTo-Json -Compress)
    Name = $s.Name; ServiceName = $s.ServiceName; StatusName = [string]$s.Status; Type = $s.PSObject.TypeNames[0]
    Dependents = @($s.DependentServices | ForEach-Object { [pscustomobject]@{ Name = $_.ServiceName; Status = [int]$_.Status; Nested = @($_.DependentServices | ForEach-Object { $_.ServiceName }) } })
    Required = @($s.ServicesDependedOn | ForEach-Object { $_.ServiceName })
  }
`;

const listServices = ps("winsim.test.listServices")`
  param([string[]]$Name, [string]$DisplayName, [switch]$DependentServices)
  $found = if ($DisplayName) { Get-Service -DisplayName $DisplayName } else { Get-Service -Name $Name -DependentServices:$DependentServices }
  ,@($found | ForEach-Object { $_.ServiceName })
`;

const status = ps("winsim.test.status")`
  param([string]$Name)
  [int](Get-Service -Name $Name).Status
`;

const startMethod = ps("winsim.test.startMethod")`
  param([string]$Name)
  $s = Get-Service -Name $Name
  $s.Start()
  [int](Get-Service -Name $Name).Status
`;

const startService = ps("winsim.test.startService")`
  param([string]$Name)
  ,@(Start-Service -Name $Name -PassThru | ForEach-Object { [int]$_.Status })
`;

const stopService = ps("winsim.test.stopService")`
  param([string]$Name, [switch]$Force, [switch]$NoWait)
  Stop-Service -Name $Name -Force:$Force -NoWait:$NoWait
  [int](Get-Service -Name $Name).Status
`;

const services: ServiceSpec[] = [
  {
    name: "Base",
    displayName: "Base Service",
    status: "Running",
    startType: "Automatic",
    stopDelayMs: 150,
  },
  { name: "Mid", status: "Running", dependsOn: ["Base"], stopDelayMs: 150 },
  { name: "Top", status: "Running", dependsOn: ["Mid"], stopDelayMs: 150 },
  { name: "Slow", startDelayMs: 60_000 },
  { name: "Stuck", startDelayMs: 1e12 },
  { name: "Pending", status: "StopPending" },
  { name: "Broken", failsToStart: true, startDelayMs: 100 },
  { name: "Off", startType: "Disabled", displayName: "Turned Off" },
  { name: "NeedsOff", dependsOn: ["Off"] },
  { name: "Held", status: "Paused" },
  { name: "Core", status: "Running", canStop: false },
  { name: "Lazy", status: "Running", stopDelayMs: 60_000 },
];

/** Moves a service's pending transition `ms` into the past (time passing without a sleep); returns its new start. */
function rewind(sim: Simulator, name: string, ms: number): number {
  let since = 0;
  sim.update((state) => {
    const transition = service(state, name).transition;
    if (transition === null) throw new Error(`${name} has no transition to rewind`);
    transition.since -= ms;
    since = transition.since;
  });
  return since;
}

function service(state: SimState, name: string) {
  const found = state.system?.services.find((s) => s.name === name);
  if (found === undefined) throw new Error(`no service ${name}`);
  return found;
}

describeWithPwsh("Get-Service", (pwsh) => {
  const host = useHost(pwsh, { system: { services } });
  const defaults = useHost(pwsh, {});

  it("returns ServiceController-shaped objects whose enums serialise as numbers", async () => {
    const got = await host.shell.run<Record<string, unknown>>(getService, { Name: "mid" });
    expect(JSON.parse(got.Json as string)).toEqual({ DisplayName: "Mid", Status: 4, StartType: 3 });
    expect(got).toMatchObject({
      Name: "Mid",
      ServiceName: "Mid",
      StatusName: "Running",
      Type: "System.ServiceProcess.ServiceController",
      Dependents: [{ Name: "Top", Status: 4, Nested: [] }],
      Required: ["Base"],
    });
    const base = await host.shell.run<Record<string, unknown>>(getService, { Name: "Base" });
    expect(base.Dependents).toEqual([{ Name: "Mid", Status: 4, Nested: ["Top"] }]);
  });

  it("has the default service set when the scenario has no system part", async () => {
    const got = await defaults.shell.run<Record<string, unknown>>(getService, { Name: "MSiSCSI" });
    expect(JSON.parse(got.Json as string)).toEqual({
      DisplayName: "Microsoft iSCSI Initiator Service",
      Status: 1,
      StartType: 3,
    });
    expect(defaults.sim.state().system?.services.length).toBeGreaterThan(5);
  });

  it("matches wildcards, display names, and lists direct dependents", async () => {
    expect(await host.shell.run(listServices, { Name: ["S*"] })).toEqual(["Slow", "Stuck"]);
    expect(await host.shell.run(listServices, { Name: ["Zz*"] })).toEqual([]);
    expect(await host.shell.run(listServices, { Name: ["Base Service"] })).toEqual(["Base"]);
    expect(await host.shell.run(listServices, { DisplayName: "Turned*" })).toEqual(["Off"]);
    expect(await host.shell.run(listServices, { Name: ["Base"], DependentServices: true })).toEqual(
      ["Mid"],
    );
  });

  it("fails a missing name with the real id, category, message and exception", async () => {
    const error = await failure(host.shell.run(status, { Name: "nope" }));
    expect(error.record).toMatchObject({
      message: "Cannot find any service with service name 'nope'.",
      fullyQualifiedErrorId:
        "NoServiceFoundForGivenName,Microsoft.PowerShell.Commands.GetServiceCommand",
      category: "ObjectNotFound",
      targetName: "nope",
      exceptionType: "Microsoft.PowerShell.Commands.ServiceCommandException",
    });
    expect(host.sim.calls().at(-1)).toMatchObject({ command: "Get-Service", outcome: "error" });
  });

  it("reports a stuck pending state as it is", async () => {
    expect(await host.shell.run(status, { Name: "Pending" })).toBe(3);
  });
});

describeWithPwsh("ServiceController.Start()", (pwsh) => {
  const host = useHost(pwsh, { system: { services } });

  it("moves Stopped → StartPending → Running after the delay, persisted with timestamps", async () => {
    const before = Date.now();
    expect(await host.shell.run(startMethod, { Name: "Slow" })).toBe(2);
    const stored = service(host.sim.state(), "Slow");
    expect(stored.transition).toMatchObject({ via: 2, to: 4, delayMs: 60_000 });
    expect(stored.transition!.since).toBeGreaterThanOrEqual(before);
    expect(serviceStatusAt(stored, stored.transition!.since + 60_000)).toBe(4);
    // Let the delay pass by moving the transition into the past, not by sleeping.
    const since = rewind(host.sim, "Slow", 60_000);
    expect(await host.shell.run(status, { Name: "Slow" })).toBe(4);
    const settled = service(host.sim.state(), "Slow");
    expect(settled).toMatchObject({ status: 4, transition: null });
    expect(settled.changedAt).toBeCloseTo(since + 60_000, 3);
    expect(host.sim.calls().map((c) => c.command)).toContain("ServiceController.Start");
  });

  it("throws as .NET does for a disabled service: InvalidOperationException over Win32 1058", async () => {
    const error = await failure(host.shell.run(startMethod, { Name: "Off" }));
    expect(error.record).toMatchObject({
      fullyQualifiedErrorId: "InvalidOperationException",
      message: `Exception calling "Start" with "0" argument(s): "Cannot start service Off on computer '.'."`,
      exceptionType: "System.Management.Automation.MethodInvocationException",
      nativeErrorCode: "1058",
    });
    expect(error.record?.exceptionChain).toEqual([
      "System.Management.Automation.MethodInvocationException",
      "System.InvalidOperationException",
      "System.ComponentModel.Win32Exception",
    ]);
    expect(host.sim.calls().at(-1)).toMatchObject({
      command: "ServiceController.Start",
      parameters: { Name: "Off" },
      outcome: "error",
    });
  });

  it("refuses a running service (1056) and a service whose dependency is disabled (1068)", async () => {
    expect(
      (await failure(host.shell.run(startMethod, { Name: "Core" }))).record?.nativeErrorCode,
    ).toBe("1056");
    expect(
      (await failure(host.shell.run(startMethod, { Name: "NeedsOff" }))).record?.nativeErrorCode,
    ).toBe("1068");
  });

  it("takes injected faults", async () => {
    host.sim.fault({
      command: "ServiceController.Start",
      match: { Name: "Stuck" },
      action: "error",
      error: { message: "The service did not respond.", statusCode: 1053 },
    });
    const error = await failure(host.shell.run(startMethod, { Name: "Stuck" }));
    expect(error.record?.nativeErrorCode).toBe("1053");
    expect(host.sim.calls().at(-1)?.outcome).toBe("fault");
  });
});

describeWithPwsh("Start-Service and Stop-Service", (pwsh) => {
  const host = useHost(pwsh, { system: { services } });

  it("Start-Service waits for Running and starts the services it depends on", async () => {
    host.sim.update((s) => {
      for (const name of ["Base", "Mid", "Top"]) service(s, name).status = 1;
    });
    expect(await host.shell.run(startService, { Name: "Top" })).toEqual([4]);
    const state = host.sim.state();
    expect(["Base", "Mid"].map((n) => serviceStatusAt(service(state, n)))).toEqual([4, 4]);
  });

  it("Start-Service reports a disabled service and one that stops again", async () => {
    const off = await failure(host.shell.run(startService, { Name: "Off" }));
    expect(off.record).toMatchObject({
      fullyQualifiedErrorId:
        "CouldNotStartService,Microsoft.PowerShell.Commands.StartServiceCommand",
      category: "OpenError",
      message:
        "Service 'Turned Off (Off)' cannot be started due to the following error: Cannot start service Off on computer '.'.",
    });
    const broken = await failure(host.shell.run(startService, { Name: "Broken" }));
    expect(broken.record?.fullyQualifiedErrorId).toBe(
      "StartServiceFailed,Microsoft.PowerShell.Commands.StartServiceCommand",
    );
  });

  it("Stop-Service refuses while a dependent runs, and stops nothing", async () => {
    const error = await failure(host.shell.run(stopService, { Name: "Mid" }));
    expect(error.record).toMatchObject({
      fullyQualifiedErrorId:
        "ServiceHasDependentServices,Microsoft.PowerShell.Commands.StopServiceCommand",
      category: "InvalidOperation",
      targetName: "System.ServiceProcess.ServiceController",
      message:
        "Cannot stop service 'Mid (Mid)' because it has dependent services. It can only be stopped if the Force flag is set.",
    });
    const state = host.sim.state();
    expect(["Base", "Mid", "Top"].map((n) => serviceStatusAt(service(state, n)))).toEqual([
      4, 4, 4,
    ]);
  });

  it("Stop-Service -Force stops the dependents deepest first, then the service", async () => {
    expect(await host.shell.run(stopService, { Name: "Base", Force: true })).toBe(1);
    const state = host.sim.state();
    const [top, mid, base] = ["Top", "Mid", "Base"].map((n) => service(state, n));
    expect([top, mid, base].map((s) => s!.status)).toEqual([1, 1, 1]);
    expect(top!.changedAt! + 150).toBeLessThanOrEqual(mid!.changedAt! + 1);
    expect(mid!.changedAt! + 150).toBeLessThanOrEqual(base!.changedAt! + 1);
  });

  it("Stop-Service -NoWait returns while the stop is pending; a stopped service is a no-op", async () => {
    expect(await host.shell.run(stopService, { Name: "Lazy", NoWait: true })).toBe(3);
    expect(await host.shell.run(stopService, { Name: "Base" })).toBe(1);
  });

  it("Stop-Service fails on a service that cannot stop or is pending", async () => {
    const core = await failure(host.shell.run(stopService, { Name: "Core", NoWait: true }));
    expect(core.record).toMatchObject({
      fullyQualifiedErrorId: "CouldNotStopService,Microsoft.PowerShell.Commands.StopServiceCommand",
      category: "CloseError",
      nativeErrorCode: "1052",
    });
    const lazy = await failure(host.shell.run(stopService, { Name: "Lazy", NoWait: true }));
    expect(lazy.record?.nativeErrorCode).toBe("1061");
  });
});

describeWithPwsh("services across processes (spawn mode)", (pwsh) => {
  const host = useHost(pwsh, { system: { services } }, { mode: "spawn" });

  it("a start made in one process is seen by the next", async () => {
    expect(await host.shell.run(startMethod, { Name: "Slow" })).toBe(2);
    rewind(host.sim, "Slow", 60_000);
    expect(await host.shell.run(status, { Name: "Slow" })).toBe(4);
    expect(new Set(host.sim.calls().map((c) => c.pid)).size).toBe(2);
  });
});
