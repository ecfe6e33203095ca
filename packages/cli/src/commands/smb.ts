import type { Command } from "commander";
import type { SmbGlobalMapping } from "@csi-proxy/smb";
import { renderTable } from "../render.js";
import { act, type Session } from "../session.js";

/** `smb list --json`: the node's global mappings as the Smb group lists them. */
export interface SmbJson {
  /** Every SMB global mapping on the node. */
  readonly mappings: readonly {
    /** The mapped share, as Windows stores it, e.g. `\\server\share`. */
    readonly remotePath: string;
    /** Drive letter, when the mapping has one; else null. */
    readonly localPath: string | null;
    /** e.g. `OK`, `Disconnected`, `Unavailable`. */
    readonly status: SmbGlobalMapping["status"];
    /** Windows' numeric status (`-1`: unrecognised), as the Smb group reports it. */
    readonly statusCode: number;
  }[];
}

/** `smb unmap --json`. */
export interface UnmapJson {
  /** The path given on the command line. */
  readonly remotePath: string;
  /** False when there was no mapping: nothing was changed. */
  readonly removed: boolean;
}

/** `smb list`, `smb unmap <remotePath>`. */
export function registerSmb(program: Command, session: Session): void {
  const smb = program.command("smb").description("SMB global mappings and their status");
  smb
    .command("list")
    .description("every SMB global mapping on the node")
    .action(
      act(session, async (run) => {
        const { mappings } = await run.withNode("Reading SMB mappings", (groups) =>
          groups.smb.listSmbGlobalMappings({}),
        );
        const data: SmbJson = {
          mappings: mappings.map((m) => ({
            remotePath: m.remotePath,
            localPath: m.localPath ?? null,
            status: m.status,
            statusCode: m.statusCode,
          })),
        };
        run.output(data, () =>
          renderTable(
            ["Remote path", "Local path", "Status"],
            data.mappings.map((m) => [m.remotePath, m.localPath, `${m.status} (${m.statusCode})`]),
          ),
        );
      }),
    );
  smb
    .command("unmap")
    .description("CHANGES THE NODE: remove the global mapping of a share (asks first, or --yes)")
    .argument("<remotePath>", "\\\\server\\share, or a folder below it (the share's mapping goes)")
    .action(
      act(session, async (run, remotePath: string) => {
        await run.confirm([
          `remove the SMB global mapping of the share holding ${remotePath}`,
          "every pod using that share on this node loses access to it",
        ]);
        const { removed } = await run.withNode("Removing the mapping", (groups) =>
          groups.smb.removeSmbGlobalMapping({ remotePath }),
        );
        const data: UnmapJson = { remotePath, removed };
        run.output(data, () =>
          removed
            ? `Removed the mapping of ${remotePath}.`
            : `No mapping for ${remotePath}: nothing was changed.`,
        );
      }),
    );
}
