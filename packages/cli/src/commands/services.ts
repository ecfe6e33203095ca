import type { Command } from "commander";
import type { GetServiceResponse } from "@csi-proxy/system";
import { renderTable } from "../render.js";
import { act, type Session } from "../session.js";

/** The services a CSI node's storage relies on: the iSCSI initiator and the SMB client. */
export const defaultServiceNames: readonly string[] = ["MSiSCSI", "LanmanWorkstation"];

/** `services --json`. */
export interface ServicesJson {
  /** `Win32_BIOS.SerialNumber`, trimmed; `""` when the BIOS has none. */
  readonly biosSerialNumber: string;
  /** Each requested service's state and start type, in the order asked. */
  readonly services: readonly ({
    /** The service's key name, as asked for. */
    readonly name: string;
  } & GetServiceResponse)[];
}

/** `services [name…]`. */
export function registerServices(program: Command, session: Session): void {
  program
    .command("services")
    .description("state and start type of services, and the BIOS serial number")
    .argument("[name...]", `service key names (default: ${defaultServiceNames.join(", ")})`)
    .action(
      act(session, async (run, names: string[] | undefined) => {
        const wanted = names !== undefined && names.length > 0 ? names : defaultServiceNames;
        const data = await run.withNode(
          "Reading services",
          async ({ system }): Promise<ServicesJson> => {
            const services: ServicesJson["services"][number][] = [];
            for (const name of wanted)
              services.push({ name, ...(await system.getService({ name })) });
            return {
              biosSerialNumber: (await system.getBiosSerialNumber({})).serialNumber,
              services,
            };
          },
        );
        run.output(data, () => {
          const table = renderTable(
            ["Service", "Display name", "Status", "Start type"],
            data.services.map((s) => [s.name, s.displayName, s.statusName, s.startTypeName]),
          );
          return `${table}\nBIOS serial number: ${data.biosSerialNumber || "(none)"}`;
        });
      }),
    );
}
