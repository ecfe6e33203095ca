import type { HandlerContext, ServiceHandlers } from "./context.js";
import { flag, text } from "./context.js";

/** system v1alpha1 (`v1alpha1.System`). */
export function systemV1alpha1({ groups: { system } }: HandlerContext): ServiceHandlers {
  return {
    async GetBIOSSerialNumber(_request, options) {
      const { serialNumber } = await system.getBiosSerialNumber({}, options);
      return { serial_number: serialNumber };
    },
    async StartService(request, options) {
      await system.startService({ name: text(request, "name") }, options);
      return {};
    },
    async StopService(request, options) {
      await system.stopService(
        { name: text(request, "name"), force: flag(request, "force") },
        options,
      );
      return {};
    },
    async GetService(request, options) {
      const service = await system.getService({ name: text(request, "name") }, options);
      // An unknown start mode reads as 0 (BOOT), as upstream's WMI-era mapping does.
      return {
        display_name: service.displayName,
        start_type: service.startType ?? 0,
        status: service.status,
      };
    },
  };
}
