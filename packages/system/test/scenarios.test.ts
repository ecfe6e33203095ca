import { describe, expect, it } from "vitest";
import { ServiceStatus, StartType, System } from "../src/index.js";
import { codes, FakeSystemHost, service } from "./fake-host.js";

/**
 * Unit-level counterparts of upstream's system integration tests (csi-proxy-api.md §8), on a
 * fake host that answers as Windows does. The simulator versions come with its service cmdlets.
 */
describe("upstream system integration scenarios", () => {
  it("GetBIOSSerialNumber: the Win32_BIOS serial contains the returned one", async () => {
    const raw = "VMware-42 00 a6 a6 02 95 ec 5e-89 05 0a cd b1 3b aa c6   ";
    const host = new FakeSystemHost();
    host.biosSerial = raw;
    const { serialNumber } = await new System({ host }).getBiosSerialNumber();
    expect(raw).toContain(serialNumber);
    expect(serialNumber).not.toBe("");
  });

  it("GetService: MSiSCSI after Stop-Service matches Get-Service numerically, status STOPPED", async () => {
    const host = new FakeSystemHost([
      service("MSiSCSI", codes.running, {
        displayName: "Microsoft iSCSI Initiator Service",
        startType: StartType.MANUAL,
      }),
    ]);
    const system = new System({ host });
    await system.stopService({ name: "MSiSCSI" });
    const raw = await host.getService("MSiSCSI");
    const response = await system.getService({ name: "MSiSCSI" });
    expect(response.status).toBe(raw.status);
    expect(response.startType).toBe(raw.startType);
    expect(response.displayName).toBe(raw.displayName);
    expect(response.status).toBe(ServiceStatus.STOPPED);
  });

  it("Stop/Start Service: MSiSCSI runs after StartService and is stopped after StopService", async () => {
    const host = new FakeSystemHost([service("MSiSCSI", codes.stopped)]);
    const system = new System({ host });
    await system.startService({ name: "MSiSCSI" });
    expect((await system.getService({ name: "MSiSCSI" })).status).toBe(ServiceStatus.RUNNING);
    await system.stopService({ name: "MSiSCSI" });
    expect((await system.getService({ name: "MSiSCSI" })).status).toBe(ServiceStatus.STOPPED);
  });

  it("upstream's StopService unit test: Force on A → B → C stops C, B, then A", async () => {
    const host = new FakeSystemHost([
      service("A", codes.running, { dependents: ["B"] }),
      service("B", codes.running, { dependents: ["C"] }),
      service("C", codes.running),
    ]);
    await new System({ host }).stopService({ name: "A", force: true });
    expect(host.log().filter((e) => e.startsWith("stopService"))).toEqual([
      "stopService C",
      "stopService B",
      "stopService A",
    ]);
  });
});
