import { describe, expect, it } from "vitest";
import { ctx, expectCode } from "./context.js";

export function systemPart(): void {
  describe("system", () => {
    it("reads the BIOS serial number", async () => {
      const { serialNumber } = await ctx().groups.system.getBiosSerialNumber();
      expect(typeof serialNumber).toBe("string");
      expect(serialNumber).toBe(serialNumber.trim());
    });

    it("sees the iSCSI initiator service the setup started", async () => {
      const service = await ctx().groups.system.getService({ name: "MSiSCSI" });
      expect(service.statusName).toBe("RUNNING");
    });

    it("stops and starts a service, each twice (the repeat changes nothing)", async () => {
      const { system } = ctx().groups;
      const name = ctx().host.stoppableService;
      await system.stopService({ name, force: true });
      await system.stopService({ name, force: true });
      expect((await system.getService({ name })).statusName).toBe("STOPPED");
      await system.startService({ name });
      await system.startService({ name });
      expect((await system.getService({ name })).statusName).toBe("RUNNING");
    });

    it("answers NOT_FOUND for an unknown service, on every method", async () => {
      const { system } = ctx().groups;
      const name = "csiConformanceNoSuchService";
      await expectCode(system.getService({ name }), "NOT_FOUND");
      await expectCode(system.startService({ name }), "NOT_FOUND");
      await expectCode(system.stopService({ name }), "NOT_FOUND");
    });
  });
}
