import type { Command } from "commander";
import type { CliGroups } from "../node.js";
import { diskNumbersArg } from "../parse-args.js";
import { orProblem } from "../problem.js";
import { byteString, humanBytes, renderTable } from "../render.js";
import { act, type Session } from "../session.js";
import { diskNumbersOf, identity } from "./disks.js";

/** One volume in `volumes list --json`. */
export interface VolumeJson {
  /** `\\?\Volume{GUID}\`. */
  readonly volumeId: string;
  /** The Windows number of the disk the volume is on. */
  readonly diskNumber: number;
  /** Whether it has any file system; null when it could not be read. */
  readonly formatted: boolean | null;
  /** File-system size, decimal string; null when it could not be read. */
  readonly totalBytes: string | null;
  /** Bytes in use, decimal string; null when it could not be read. */
  readonly usedBytes: string | null;
  /** Bytes free, decimal string; null when it could not be read. */
  readonly freeBytes: string | null;
  /** Where it is mounted (drive letters and folders); null when it could not be read. */
  readonly mountPoints: readonly string[] | null;
  /** `CODE: message` when the volume could not be read, else null. */
  readonly problem: string | null;
}

/** `volumes list --json`. */
export interface VolumesJson {
  /** Every volume on the listed disks. */
  readonly volumes: readonly VolumeJson[];
  /** Disks whose volumes could not be listed (e.g. offline), with why. */
  readonly diskProblems: readonly {
    /** The Windows disk number. */
    readonly diskNumber: number;
    /** `CODE: message` saying why its volumes could not be listed. */
    readonly problem: string;
  }[];
}

/** `volumes target --json`. */
export interface TargetJson {
  /** The path looked up, in the node's path style. */
  readonly targetPath: string;
  /** The volume found, `\\?\Volume{GUID}\`. */
  readonly volumeId: string;
  /** `mounted`: the volume mounted at the path; `closest`: the volume holding the path. */
  readonly lookup: "mounted" | "closest";
}

/** `volumes unmount --json`. */
export interface UnmountJson {
  /** The volume given on the command line. */
  readonly volumeId: string;
  /** The folder it was unmounted from, in the node's path style. */
  readonly targetPath: string;
  /** False when it was not mounted there: nothing was changed. */
  readonly wasMounted: boolean;
}

async function readVolume(groups: CliGroups, volumeId: string, diskNumber: number) {
  const read = await orProblem(async () => {
    const { formatted } = await groups.volume.isVolumeFormatted({ volumeId });
    const { totalBytes, usedBytes } = await groups.volume.getVolumeStats({ volumeId });
    const { mountPoints } = await groups.volume.listVolumeMountPoints({ volumeId });
    return { formatted, total: BigInt(totalBytes), used: BigInt(usedBytes), mountPoints };
  });
  const v = read.value;
  return {
    volumeId,
    diskNumber,
    formatted: v?.formatted ?? null,
    totalBytes: v ? byteString(v.total) : null,
    usedBytes: v ? byteString(v.used) : null,
    freeBytes: v ? byteString(v.total - v.used) : null,
    mountPoints: v?.mountPoints ?? null,
    problem: read.problem,
  } satisfies VolumeJson;
}

async function listVolumes(groups: CliGroups, only: readonly number[]): Promise<VolumesJson> {
  const numbers = only.length > 0 ? only : diskNumbersOf(await identity(groups));
  // A disk named on the command line that does not exist fails the command, as `disks show` does.
  const fatal = only.length > 0 ? (["NOT_FOUND"] as const) : [];
  const volumes: VolumeJson[] = [];
  const diskProblems: { diskNumber: number; problem: string }[] = [];
  for (const diskNumber of numbers) {
    const listed = await orProblem(() => groups.volume.listVolumesOnDisk({ diskNumber }), fatal);
    if (listed.value === null) diskProblems.push({ diskNumber, problem: listed.problem });
    for (const volumeId of listed.value?.volumeIds ?? []) {
      volumes.push(await readVolume(groups, volumeId, diskNumber));
    }
  }
  return { volumes, diskProblems };
}

function volumesTable({ volumes, diskProblems }: VolumesJson): string {
  const size = (bytes: string | null) => (bytes === null ? null : humanBytes(bytes));
  const main = renderTable(
    ["Disk", "Volume", "Formatted", "Size", "Used", "Free", "Mounted at", "Problem"],
    volumes.map((v) => [
      v.diskNumber,
      v.volumeId,
      v.formatted,
      size(v.totalBytes),
      size(v.usedBytes),
      size(v.freeBytes),
      v.mountPoints === null ? null : v.mountPoints.join(", ") || "-",
      v.problem,
    ]),
  );
  if (diskProblems.length === 0) return main;
  const problems = renderTable(
    ["Disk", "Volumes not listed"],
    diskProblems.map((p) => [p.diskNumber, p.problem]),
  );
  return `${main}\n${problems}`;
}

/** `volumes list [disk…]`, `volumes target <path>`, `volumes unmount <volumeId> <path>`. */
export function registerVolumes(program: Command, session: Session): void {
  const volumes = program
    .command("volumes")
    .description("volumes: ids per disk, size and free space, which volume a path is on");
  volumes
    .command("list")
    .description(
      "the volumes of the given disks (default: every disk); a given disk that does not exist is NOT_FOUND",
    )
    .argument("[disk...]", "Windows disk numbers", diskNumbersArg)
    .action(
      act(session, async (run, disks: number[] | undefined) => {
        const data = await run.withNode("Reading volumes", (groups) =>
          listVolumes(groups, disks ?? []),
        );
        run.output(data, () => volumesTable(data));
      }),
    );
  volumes
    .command("target")
    .description("the volume mounted at a path (a CSI staging or publish path)")
    .argument("<path>", "an absolute path on the node")
    .option("--closest", "the volume holding the path, walking up to the drive if need be")
    .action(
      act(session, async (run, path: string, options: { closest?: boolean }) => {
        const targetPath = run.nodePath(path);
        const closest = options.closest === true;
        const data = await run.withNode(
          `Resolving ${targetPath}`,
          async ({ volume }): Promise<TargetJson> => {
            const { volumeId } = closest
              ? await volume.getClosestVolumeIdFromTargetPath({ targetPath })
              : await volume.getVolumeIdFromTargetPath({ targetPath });
            return { targetPath, volumeId, lookup: closest ? "closest" : "mounted" };
          },
        );
        run.output(data, () =>
          renderTable(
            ["Path", "Volume", "Lookup"],
            [[data.targetPath, data.volumeId, data.lookup]],
          ),
        );
      }),
    );
  volumes
    .command("unmount")
    .description("CHANGES THE NODE: remove a volume's mount at a path (asks first, or --yes)")
    .argument("<volumeId>", "the volume, \\\\?\\Volume{GUID}\\")
    .argument("<path>", "the folder it is mounted at (the folder itself stays)")
    .action(
      act(session, async (run, volumeId: string, path: string) => {
        const targetPath = run.nodePath(path);
        await run.confirm([
          `unmount volume ${volumeId} from ${targetPath}`,
          "the volume's cache is flushed first; the folder and the data stay",
        ]);
        const { wasMounted } = await run.withNode("Unmounting", (groups) =>
          groups.volume.unmountVolume({ volumeId, targetPath }),
        );
        const data: UnmountJson = { volumeId, targetPath, wasMounted };
        run.output(data, () =>
          wasMounted
            ? `Unmounted ${volumeId} from ${targetPath}.`
            : `${volumeId} was not mounted at ${targetPath}: nothing was changed.`,
        );
      }),
    );
}
