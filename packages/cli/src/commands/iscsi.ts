import type { Command } from "commander";
import type { ListedTargetPortal } from "@csi-proxy/iscsi";
import type { CliGroups } from "../node.js";
import { portalArg } from "../parse-args.js";
import { orProblem } from "../problem.js";
import { renderTable } from "../render.js";
import { act, type Session } from "../session.js";

/** `iscsi portals --json`. */
export interface PortalsJson {
  /** Every registered target portal, as the host reports it. */
  readonly portals: readonly ListedTargetPortal[];
}

/** `iscsi targets --json`: each registered portal's targets, and the disks of logged-in ones. */
export interface TargetsJson {
  /** Every target discovered through a registered portal. */
  readonly targets: readonly {
    /** The portal the target was discovered through. */
    readonly portal: ListedTargetPortal;
    /** The target's name (IQN). */
    readonly iqn: string;
    /** Windows disk numbers of the target's LUNs; empty when it is not logged in (or has none yet). */
    readonly diskNumbers: readonly number[];
  }[];
  /** Portals whose discovery failed, with why. */
  readonly portalProblems: readonly {
    /** The portal whose discovery failed. */
    readonly portal: ListedTargetPortal;
    /** `CODE: message` saying why discovery failed. */
    readonly problem: string;
  }[];
}

/** `iscsi logout --json`. */
export interface LogoutJson {
  /** The portal logged out through, as given on the command line. */
  readonly portal: {
    /** The portal's address as given (brackets of an IPv6 address removed). */
    readonly targetAddress: string;
    /** The port given; absent when none was (the iSCSI default, 3260). */
    readonly targetPort?: number;
  };
  /** The target's name (IQN). */
  readonly iqn: string;
  /** How many sessions through the portal were found and logged out. */
  readonly sessionsLoggedOut: number;
}

const portalText = (p: { targetAddress: string; targetPort?: number }) =>
  `${p.targetAddress.includes(":") ? `[${p.targetAddress}]` : p.targetAddress}:${p.targetPort ?? 3260}`;

async function listTargets(groups: CliGroups): Promise<TargetsJson> {
  const { targetPortals } = await groups.iscsi.listTargetPortals({});
  const targets: TargetsJson["targets"][number][] = [];
  const portalProblems: TargetsJson["portalProblems"][number][] = [];
  for (const portal of targetPortals) {
    const found = await orProblem(() =>
      groups.iscsi.discoverTargetPortal({ targetPortal: portal }),
    );
    if (found.value === null) portalProblems.push({ portal, problem: found.problem });
    for (const iqn of found.value?.iqns ?? []) {
      const { diskIds } = await groups.iscsi.getTargetDisks({ targetPortal: portal, iqn });
      targets.push({ portal, iqn, diskNumbers: diskIds });
    }
  }
  return { targets, portalProblems };
}

function targetsTable({ targets, portalProblems }: TargetsJson): string {
  const main = renderTable(
    ["Portal", "Target", "Disks (logged-in LUNs)"],
    targets.map((t) => [portalText(t.portal), t.iqn, t.diskNumbers.join(", ")]),
  );
  if (portalProblems.length === 0) return main;
  const problems = renderTable(
    ["Portal", "Discovery failed"],
    portalProblems.map((p) => [portalText(p.portal), p.problem]),
  );
  return `${main}\n${problems}`;
}

/** `iscsi portals`, `iscsi targets`, `iscsi logout <portal> <iqn>`. */
export function registerIscsi(program: Command, session: Session): void {
  const iscsi = program
    .command("iscsi")
    .description("iSCSI: registered portals, their targets, the disks of logged-in targets");
  iscsi
    .command("portals")
    .description("every registered target portal")
    .action(
      act(session, async (run) => {
        const { targetPortals } = await run.withNode("Reading iSCSI portals", (groups) =>
          groups.iscsi.listTargetPortals({}),
        );
        const data: PortalsJson = { portals: targetPortals };
        run.output(data, () =>
          renderTable(
            ["Address", "Port"],
            targetPortals.map((p) => [p.targetAddress, p.targetPort]),
          ),
        );
      }),
    );
  iscsi
    .command("targets")
    .description(
      "each portal's targets (re-runs SendTargets discovery, which changes no login) and their disks",
    )
    .action(
      act(session, async (run) => {
        const data = await run.withNode("Discovering iSCSI targets", (groups) =>
          listTargets(groups),
        );
        run.output(data, () => targetsTable(data));
      }),
    );
  iscsi
    .command("logout")
    .description(
      "CHANGES THE NODE: log out of a target's sessions through a portal (asks first, or --yes)",
    )
    .argument("<portal>", "address, address:port or [ipv6]:port (port 3260 by default)", portalArg)
    .argument("<iqn>", "the target's name")
    .action(
      act(session, async (run, portal: LogoutJson["portal"], iqn: string) => {
        await run.confirm([
          `log out of target ${iqn} through portal ${portalText(portal)}`,
          "a persistent login is unregistered too; the target's disks leave the node",
        ]);
        const { sessionsLoggedOut } = await run.withNode("Logging out", (groups) =>
          groups.iscsi.disconnectTarget({ targetPortal: portal, iqn }),
        );
        const data: LogoutJson = { portal, iqn, sessionsLoggedOut };
        run.output(data, () =>
          sessionsLoggedOut === 0
            ? `No session of ${iqn} through ${portalText(portal)}: nothing to log out.`
            : `Logged out of ${iqn} through ${portalText(portal)} (${sessionsLoggedOut} session${sessionsLoggedOut === 1 ? "" : "s"}).`,
        );
      }),
    );
}
