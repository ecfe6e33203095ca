import { describe, expect, it } from "vitest";
import { serviceStatusName, startTypeName, toServiceStatus, toStartType } from "../src/enums.js";
import { ServiceStatus, StartType } from "../src/index.js";

describe("ServiceStatus", () => {
  it("has upstream's values (SERVICE_STATUS_*)", () => {
    expect(ServiceStatus).toEqual({
      UNKNOWN: 0,
      STOPPED: 1,
      START_PENDING: 2,
      STOP_PENDING: 3,
      RUNNING: 4,
      CONTINUE_PENDING: 5,
      PAUSE_PENDING: 6,
      PAUSED: 7,
    });
    expect(Object.isFrozen(ServiceStatus)).toBe(true);
  });

  it("takes .NET ServiceControllerStatus codes as they are and anything else as UNKNOWN", () => {
    for (let code = 0; code <= 7; code += 1) expect(toServiceStatus(code)).toBe(code);
    for (const code of [8, -1, 4.5, null])
      expect(toServiceStatus(code)).toBe(ServiceStatus.UNKNOWN);
  });

  it("names every value", () => {
    expect(Object.values(ServiceStatus).map(serviceStatusName)).toEqual(Object.keys(ServiceStatus));
  });
});

describe("StartType", () => {
  it("has upstream's values (START_TYPE_*)", () => {
    expect(StartType).toEqual({ BOOT: 0, SYSTEM: 1, AUTOMATIC: 2, MANUAL: 3, DISABLED: 4 });
    expect(Object.isFrozen(StartType)).toBe(true);
  });

  it("takes .NET ServiceStartMode codes as they are and anything else as null, not BOOT", () => {
    for (let code = 0; code <= 4; code += 1) expect(toStartType(code)).toBe(code);
    for (const code of [5, -1, 2.5, null]) expect(toStartType(code)).toBeNull();
  });

  it("names every value, and null as UNKNOWN", () => {
    expect(Object.values(StartType).map(startTypeName)).toEqual(Object.keys(StartType));
    expect(startTypeName(null)).toBe("UNKNOWN");
  });
});
