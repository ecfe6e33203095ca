import { invalidArgument } from "@csi-proxy/exec";

/** A remote path split into the share root that owns the mapping and the full path to link to. */
export interface RemotePath {
  /** Canonical key of the global mapping: lower-case `\\server\share`. */
  readonly shareRoot: string;
  /** The whole path with `\` separators and no trailing separator, case kept: `\\Server\Share\dir`. */
  readonly path: string;
}

const maxLength = 32_767;
// Host names, NetBIOS names, IPv4 and `*.ipv6-literal.net` names; no spaces or punctuation that a
// UNC parser or SMB server would read differently.
const serverName = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]{0,253}[A-Za-z0-9_])?$/;
// Share names: up to 80 characters, none of the characters Windows forbids (`$` stays allowed for
// hidden and administrative shares such as `C$`).
const shareForbidden = /["*+,/:;<=>?[\\\]|]/;
const maxShareLength = 80;
const segmentForbidden = /["*:<>?|]/;

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

/**
 * Validates a UNC path `\\server\share[\sub\path]` and returns its share root and full path.
 * Forward slashes count as backslashes, repeated and trailing separators are dropped, and the
 * share root is lower-cased (upstream's canonical mapping key), so `//Srv/Share/`,
 * `\\srv\share` and `\\SRV\share\dir` all share one global mapping. Throws `INVALID_ARGUMENT`
 * for anything else, including `..` segments, control characters and `\\?\`/`\\.\` prefixes.
 *
 * @example
 * ```ts
 * parseRemotePath("//FileServer/Data/pv-1/");
 * // { shareRoot: "\\\\fileserver\\data", path: "\\\\FileServer\\Data\\pv-1" }
 * ```
 */
export function parseRemotePath(value: unknown): RemotePath {
  if (typeof value !== "string" || value.trim() === "")
    throw invalidArgument("remotePath is empty.");
  if (value.length > maxLength)
    throw invalidArgument(`remotePath is longer than ${maxLength} characters.`);
  if (hasControlCharacter(value))
    throw invalidArgument(`remotePath contains a control character: ${JSON.stringify(value)}`);
  const text = value.replaceAll("/", "\\");
  if (!text.startsWith("\\\\"))
    throw invalidArgument(
      `remotePath must be a UNC path \\\\server\\share: ${JSON.stringify(value)}`,
    );
  if (text.startsWith("\\\\?\\") || text.startsWith("\\\\.\\"))
    throw invalidArgument(`remotePath must not be a device path: ${JSON.stringify(value)}`);
  const [server = "", share = "", ...rest] = text.split("\\").filter((part) => part !== "");
  if (!serverName.test(server) || server.includes(".."))
    throw invalidArgument(`remotePath has an invalid server name: ${JSON.stringify(value)}`);
  if (share === "" || share.length > maxShareLength || shareForbidden.test(share))
    throw invalidArgument(`remotePath has an invalid share name: ${JSON.stringify(value)}`);
  if (/^\.+$/.test(share) || share.trim() !== share)
    throw invalidArgument(`remotePath has an invalid share name: ${JSON.stringify(value)}`);
  for (const segment of rest) {
    if (/^\.+$/.test(segment))
      throw invalidArgument(`remotePath contains a '${segment}' segment: ${JSON.stringify(value)}`);
    if (segmentForbidden.test(segment))
      throw invalidArgument(`remotePath contains invalid characters: ${JSON.stringify(value)}`);
  }
  const shareRoot = `\\\\${server}\\${share}`;
  return {
    shareRoot: shareRoot.toLowerCase(),
    path: [shareRoot, ...rest].join("\\"),
  };
}
