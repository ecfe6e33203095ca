import { describe, expect, it } from "vitest";
import {
  buildScenario,
  defaultServiceSpecs,
  defaultSystemState,
  serviceStatusAt,
  type ServiceState,
} from "../src/index.js";

describe("system scenario", () => {
  it("leaves the system part out when the spec does, so the module falls back to the defaults", () => {
    expect(buildScenario({}, "/tmp/r").state.system).toBeUndefined();
    const defaults = defaultSystemState();
    expect(defaults.bios?.serialNumber).toMatch(/^\d{4}(-\d{4}){5}-\d{2}$/);
    expect(defaults.services.map((s) => s.name)).toContain("MSiSCSI");
  });

  it("builds services by name with defaults, and the BIOS over the default one", () => {
    const { system } = buildScenario(
      {
        system: {
          bios: { serialNumber: "  VMware-42 00 a6  " },
          services: [
            { name: "A", status: "Running", startType: "Automatic", stopDelayMs: 50 },
            { name: "B", dependsOn: ["A"], status: 7, startType: 4 },
          ],
        },
      },
      "/tmp/r",
    ).state;
    expect(system?.bios).toMatchObject({
      serialNumber: "  VMware-42 00 a6  ",
      manufacturer: "Microsoft Corporation",
    });
    expect(system?.services).toEqual([
      expect.objectContaining({
        name: "A",
        displayName: "A",
        status: 4,
        startType: 2,
        stopDelayMs: 50,
      }),
      expect.objectContaining({
        name: "B",
        dependsOn: ["A"],
        status: 7,
        startType: 4,
        canStop: true,
      }),
    ]);
  });

  it("takes bios null as no Win32_BIOS instance, and rejects duplicate or unknown names", () => {
    expect(buildScenario({ system: { bios: null } }, "/r").state.system?.bios).toBeNull();
    expect(() =>
      buildScenario({ system: { services: [{ name: "a" }, { name: "A" }] } }, "/r"),
    ).toThrow(/twice/);
    expect(() =>
      buildScenario(
        { system: { services: [{ name: "a", status: "Sleeping" as "Running" }] } },
        "/r",
      ),
    ).toThrow(RangeError);
  });

  it("round-trips the default services through specs", () => {
    const rebuilt = buildScenario({ system: { services: defaultServiceSpecs() } }, "/r").state
      .system;
    expect(rebuilt?.services).toEqual(defaultSystemState().services);
  });

  it("computes a status from a transition's start and delay", () => {
    const service = {
      status: 1,
      transition: { via: 2, to: 4, since: 1000, delayMs: 500 },
    } as ServiceState;
    expect(serviceStatusAt(service, 1499)).toBe(2);
    expect(serviceStatusAt(service, 1500)).toBe(4);
    expect(serviceStatusAt({ ...service, transition: null }, 1500)).toBe(1);
  });
});
