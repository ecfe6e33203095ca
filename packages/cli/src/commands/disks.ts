import type { Command } from "commander";
import type { DiskIdsError, DiskLocation } from "@csi-proxy/disk";
import type { CliGroups } from "../node.js";
import { diskNumberArg } from "../parse-args.js";
import { orProblem } from "../problem.js";
import { byteString, humanBytes, renderTable } from "../render.js";
import { act, type Session } from "../session.js";

/** One disk in `disks list --json` and `disks show --json`. */
export interface DiskJson {
  /** The Windows disk number. */
  readonly number: number;
  /** Page-83 identifier as `listDiskIds` reports it (`""`: none); null when it could not be read. */
  readonly page83: string | null;
  /** The disk's serial number; null when neither listing reports one. */
  readonly serialNumber: string | null;
  /** Null when the disk's Location has no SCSI-style shape (e.g. a VHD or an NVMe disk). */
  readonly location: DiskLocation | null;
  /** Decimal string; null when it could not be read (see `problem`). */
  readonly sizeBytes: string | null;
  /** Whether the disk is online; null when it could not be read (see `problem`). */
  readonly online: boolean | null;
  /** `CODE: message` when the size or state could not be read, else null. */
  readonly problem: string | null;
}

/** `disks list --json`. */
export interface DisksJson {
  /** Every disk either listing names, by ascending number. */
  readonly disks: readonly DiskJson[];
  /** Disks whose identifiers could not be read, as `listDiskIds` reports them. */
  readonly idErrors: readonly DiskIdsError[];
}

/** What the Disk group's two listings say about every disk. */
export interface Identity {
  readonly ids: Awaited<ReturnType<CliGroups["disk"]["listDiskIds"]>>;
  readonly locations: ReadonlyMap<number, DiskLocation>;
}

export async function identity(groups: CliGroups): Promise<Identity> {
  const ids = await groups.disk.listDiskIds({});
  const { diskLocations } = await groups.disk.listDiskLocations({});
  return { ids, locations: diskLocations };
}

function describe(
  { ids, locations }: Identity,
  number: number,
  size: number | bigint | null,
  online: boolean | null,
  problem: string | null,
): DiskJson {
  const found = ids.diskIds.get(number);
  const failed = ids.errors.find((e) => e.diskNumber === number);
  return {
    number,
    page83: found?.page83 ?? null,
    serialNumber: found?.serialNumber ?? failed?.serialNumber ?? null,
    location: locations.get(number) ?? null,
    sizeBytes: size === null ? null : byteString(size),
    online,
    problem,
  };
}

/** Every disk number either listing names, ascending. */
export function diskNumbersOf(known: Identity): number[] {
  const numbers = new Set([...known.ids.diskIds.keys(), ...known.locations.keys()]);
  for (const e of known.ids.errors) if (e.diskNumber !== null) numbers.add(e.diskNumber);
  return [...numbers].sort((a, b) => a - b);
}

async function listDisks(groups: CliGroups): Promise<DisksJson> {
  const known = await identity(groups);
  const disks: DiskJson[] = [];
  for (const number of diskNumbersOf(known)) {
    const read = await orProblem(async () => ({
      size: (await groups.disk.getDiskStats({ diskNumber: number })).totalBytes,
      online: (await groups.disk.getDiskState({ diskNumber: number })).isOnline,
    }));
    disks.push(
      describe(known, number, read.value?.size ?? null, read.value?.online ?? null, read.problem),
    );
  }
  return { disks, idErrors: known.ids.errors };
}

// Size first: a disk that does not exist fails with NOT_FOUND before the slower listings.
async function showDisk(groups: CliGroups, diskNumber: number): Promise<{ disk: DiskJson }> {
  const { totalBytes } = await groups.disk.getDiskStats({ diskNumber });
  const { isOnline } = await groups.disk.getDiskState({ diskNumber });
  return { disk: describe(await identity(groups), diskNumber, totalBytes, isOnline, null) };
}

function locationText(location: DiskLocation | null): string | null {
  if (location === null) return null;
  const { adapter, bus, target, lunId } = location;
  return `adapter ${adapter || "-"} bus ${bus || "-"} target ${target || "-"} lun ${lunId || "-"}`;
}

function disksTable({ disks, idErrors }: DisksJson): string {
  const main = renderTable(
    ["Disk", "Size", "Online", "Page 83", "Serial", "Location", "Problem"],
    disks.map((d) => [
      d.number,
      d.sizeBytes === null ? null : humanBytes(d.sizeBytes),
      d.online,
      d.page83,
      d.serialNumber,
      locationText(d.location),
      d.problem,
    ]),
  );
  if (idErrors.length === 0) return main;
  const errors = renderTable(
    ["Disk", "Device path", "Serial", "Identifiers unreadable"],
    idErrors.map((e) => [e.diskNumber, e.path, e.serialNumber, e.message]),
  );
  return `${main}\n${errors}`;
}

function diskTable({ disk: d }: { disk: DiskJson }): string {
  return renderTable(
    ["Disk", String(d.number)],
    [
      ["Size", d.sizeBytes === null ? null : `${humanBytes(d.sizeBytes)} (${d.sizeBytes} bytes)`],
      ["Online", d.online],
      ["Page 83", d.page83],
      ["Serial", d.serialNumber],
      ["Location", locationText(d.location)],
    ],
  );
}

/** `disks list`, `disks show <number>`. */
export function registerDisks(program: Command, session: Session): void {
  const disks = program
    .command("disks")
    .description("disks: numbers, page-83 ids, serials, locations, size, online state");
  disks
    .command("list")
    .description("every disk Windows reports, with the disks whose ids could not be read")
    .action(
      act(session, async (run) => {
        const data = await run.withNode("Reading disks", (groups) => listDisks(groups));
        run.output(data, () => disksTable(data));
      }),
    );
  disks
    .command("show")
    .description("one disk by its Windows disk number")
    .argument("<number>", "Windows disk number (Get-Disk's Number)", diskNumberArg)
    .action(
      act(session, async (run, diskNumber: number) => {
        const data = await run.withNode(`Reading disk ${diskNumber}`, (groups) =>
          showDisk(groups, diskNumber),
        );
        run.output(data, () => diskTable(data));
      }),
    );
}
