// Test-side helpers for the SMB part of a simulated host: share folders and state edits.
import { join, relative, sep } from "node:path";
import type { Simulator } from "./simulator.js";
import { smbPasswordHash, smbStatuses, type SmbState, type SmbStatusName } from "./smb.js";

const uncPattern = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)((?:[\\/]+[^\\/]*)*)$/;

/** The folder that stands in for `\\server\share` (names lower-cased: SMB compares them case-insensitively). */
export function smbShareDir(sim: Simulator, server: string, share: string): string {
  return join(sim.dir, "shares", server.toLowerCase(), share.toLowerCase());
}

/**
 * The Linux path behind a UNC path: `\\Srv\Share\a\b\` → `<sim.dir>/shares/srv/share/a/b`.
 * The same rule the module's Test-Path uses; throws RangeError for anything but `\\server\share[\...]`.
 */
export function uncToLocal(sim: Simulator, unc: string): string {
  const match = uncPattern.exec(unc);
  if (match === null || match[1] === "?" || match[1] === ".")
    throw new RangeError(`Not a UNC path \\\\server\\share: ${unc}`);
  const rest = (match[3] ?? "").split(/[\\/]+/).filter((s) => s !== "");
  return join(smbShareDir(sim, match[1] ?? "", match[2] ?? ""), ...rest);
}

/** The UNC path a share folder stands for (lower-case server and share), or undefined outside the shares. */
export function localToUnc(sim: Simulator, path: string): string | undefined {
  const rel = relative(join(sim.dir, "shares"), path.replace(/\/+$/, ""));
  const parts = rel.split(sep);
  if (rel.startsWith("..") || parts.length < 2) return undefined;
  return `\\\\${parts.join("\\")}`;
}

function smbOf(sim: Simulator, edit: (smb: SmbState) => void): void {
  sim.update((state) => {
    const smb = state.smb ?? { version: 1, servers: [], mappings: [] };
    edit(smb);
    state.smb = smb;
  });
}

/**
 * Changes an account's password on a server. Mappings made with the old one keep showing their
 * status (OK) but stop opening: Test-Path on them is false, as on Windows.
 */
export function setSmbPassword(
  sim: Simulator,
  server: string,
  user: string,
  password: string,
): void {
  smbOf(sim, (smb) => {
    const host = smb.servers.find((s) => s.name.toLowerCase() === server.toLowerCase());
    const account = host?.accounts.find((a) => a.user.toLowerCase() === user.toLowerCase());
    if (account === undefined) throw new RangeError(`No account ${user} on server ${server}.`);
    account.passwordSha256 = smbPasswordHash(password);
  });
}

/** Sets the Status of the mappings whose RemotePath equals `remotePath` (case-insensitive, trailing `\` ignored). */
export function setSmbMappingStatus(
  sim: Simulator,
  remotePath: string,
  status: SmbStatusName | number,
): void {
  const key = remotePath.replace(/\\+$/, "").toLowerCase();
  smbOf(sim, (smb) => {
    const hits = smb.mappings.filter((m) => m.remotePath.replace(/\\+$/, "").toLowerCase() === key);
    if (hits.length === 0) throw new RangeError(`No global mapping of ${remotePath}.`);
    for (const m of hits) m.status = typeof status === "number" ? status : smbStatuses[status];
  });
}

/** The link-host shape the SMB group uses (`readLink` and `createLink` are all this needs). */
export interface UncLinkHost {
  /** What is at `path`, links not followed; a link reports its target as stored. */
  readLink(path: string): Promise<{
    /** What the entry is, e.g. `link`, `directory` or `missing`. */
    readonly kind: string;
    /** A link's target as stored. */
    readonly target?: string;
  }>;
  /** Creates `path` as a directory symbolic link to `target`. */
  createLink(path: string, target: string): Promise<void>;
}

/**
 * Wraps a link host for the simulated host: Linux has no UNC paths, so a link to
 * `\\server\share\x\` points at the share's backing folder, and reading it back gives the UNC
 * form again.
 */
export function translateUncLinks<H extends UncLinkHost>(sim: Simulator, host: H): H {
  const translated: UncLinkHost = {
    async readLink(path) {
      const entry = await host.readLink(path);
      if (entry.kind !== "link" || entry.target === undefined) return entry;
      const unc = localToUnc(sim, entry.target);
      return unc === undefined ? entry : { ...entry, target: `${unc}\\` };
    },
    createLink: (path, target) => host.createLink(path, uncToLocal(sim, target)),
  };
  return { ...host, ...translated };
}
