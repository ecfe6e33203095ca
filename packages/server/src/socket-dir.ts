import { chmodSync, lstatSync, mkdirSync, readlinkSync, type Stats } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { CsiProxyError } from "@csi-proxy/exec";

const groupWrite = 0o020;
const groupSearch = 0o010;
const otherWrite = 0o002;
const sticky = 0o1000;
// As the kernel's own limit on links followed in one lookup (Linux's MAXSYMLINKS).
const maxLinks = 40;

const octal = (mode: number) => `0${(mode & 0o7777).toString(8)}`;

function refuse(message: string): never {
  throw new CsiProxyError(`Not serving in this socket folder: ${message}`, {
    code: "FAILED_PRECONDITION",
  });
}

// Whoever can write a folder on the way can swap what comes after it for their own.
function checkAncestor(path: string, stats: Stats, euid: number): void {
  if (!stats.isDirectory()) refuse(`${path} is not a folder.`);
  if (stats.uid !== 0 && stats.uid !== euid)
    refuse(`${path}, on the way to it, belongs to uid ${stats.uid}, not to root or this server.`);
  if ((stats.mode & (groupWrite | otherWrite)) !== 0 && (stats.mode & sticky) === 0)
    refuse(`${path}, on the way to it, is writable by others (mode ${octal(stats.mode)}).`);
}

// Walks `path` as the kernel would, checking every folder and link it passes; stops at the first
// name that does not exist yet (the server makes the rest, owner-only).
function checkWay(path: string, euid: number): void {
  const pending = path.split("/").filter((name) => name !== "" && name !== ".");
  let at = "/";
  let links = 0;
  checkAncestor(at, lstatSync(at), euid);
  while (pending.length > 0) {
    const name = pending.shift() ?? "";
    if (name === "..") {
      at = dirname(at);
      continue;
    }
    const next = join(at, name);
    let stats: Stats;
    try {
      stats = lstatSync(next);
    } catch {
      return;
    }
    if (stats.isSymbolicLink()) {
      if (++links > maxLinks) refuse(`${path} has too many links on the way.`);
      if (stats.uid !== 0 && stats.uid !== euid)
        refuse(`the link ${next}, on the way to it, belongs to uid ${stats.uid}.`);
      const target = readlinkSync(next);
      pending.unshift(...target.split("/").filter((part) => part !== "" && part !== "."));
      if (isAbsolute(target)) at = "/";
      continue;
    }
    checkAncestor(next, stats, euid);
    at = next;
  }
}

/**
 * Makes the socket folder (owner-only) if it is missing and checks it as a place for the sockets:
 * not a link, owned by this server's user, writable by no one else (by its group only with
 * `groupWritable`, for `--socket-mode 0660`), and every folder and link on the way owned by root
 * or this user and not writable by others unless sticky (as `/tmp`). Otherwise another local user
 * could replace a socket with one that collects the callers' tokens and secrets.
 * @returns the folder as an absolute path
 */
export function secureSocketDir(dir: string, groupWritable: boolean): string {
  const path = resolve(dir);
  const euid = process.geteuid?.() ?? 0;
  checkWay(dirname(path), euid);
  const created = mkdirSync(path, { recursive: true, mode: 0o700 });
  // With --socket-mode 0660 the group connects: the folders this server made let it pass (0750).
  if (created !== undefined && groupWritable) {
    for (let at = path; ; at = dirname(at)) {
      chmodSync(at, 0o750);
      if (at === created || dirname(at) === at) break;
    }
  }
  checkWay(dirname(path), euid);
  const stats = lstatSync(path);
  if (stats.isSymbolicLink()) refuse(`${path} is a link; give the folder itself.`);
  if (!stats.isDirectory()) refuse(`${path} is not a folder.`);
  if (stats.uid !== euid)
    refuse(`${path} belongs to uid ${stats.uid}, not to this server's user (uid ${euid}).`);
  const forbidden = groupWritable ? otherWrite : groupWrite | otherWrite;
  if ((stats.mode & forbidden) !== 0) {
    const who = (stats.mode & otherWrite) !== 0 ? "every local user" : "its group";
    refuse(
      `${path} is writable by ${who} (mode ${octal(stats.mode)}), who could replace the sockets; chmod it to 0700${groupWritable ? " or 0770" : ""}.`,
    );
  }
  if (groupWritable && (stats.mode & groupSearch) === 0) {
    refuse(
      `--socket-mode 0660 lets the group use the sockets, but the group cannot reach ${path} (mode ${octal(stats.mode)}); chmod it to 0750.`,
    );
  }
  return path;
}
