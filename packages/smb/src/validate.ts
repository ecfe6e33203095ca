import { invalidArgument, requestFields } from "@csi-proxy/exec";
import { normalizeLocalPath, type LocalPathRules } from "./local-path.js";
import { parseRemotePath, type RemotePath } from "./remote-path.js";

/** A validated {@link NewSmbGlobalMappingRequest}. */
export interface CheckedNewMapping {
  readonly remote: RemotePath;
  readonly localPath: string | undefined;
  readonly username: string | undefined;
  readonly password: string | undefined;
  readonly requirePrivacy: boolean;
}

const maxUserLength = 513;

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return true;
  return false;
}

/** The request as an object, else INVALID_ARGUMENT. */
export function requestObject(request: unknown): Record<string, unknown> {
  return requestFields(request, "Smb");
}

/**
 * The account in a logon name, as PowerShell's credential splits it: after the first `\\`; else,
 * when the text after the last `@` has no dot, before that `@`; else the whole name (a UPN). When
 * it is empty (`@corp`, `CORP\\`) the credential cannot become a Windows logon, and the failure
 * would only come once a process had started.
 */
function accountPart(username: string): string {
  const slash = username.indexOf("\\");
  if (slash !== -1) return username.slice(slash + 1);
  const at = username.lastIndexOf("@");
  if (at === -1 || username.includes(".", at)) return username;
  return username.slice(0, at);
}

function optionalString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw invalidArgument(`${field} must be a string.`);
  return value;
}

/**
 * Checks a whole new-mapping request before anything runs. Credentials come in pairs (`""`
 * counts as absent; neither means the node's computer account); messages never quote the password.
 */
export function checkNewMapping(request: unknown, rules: LocalPathRules): CheckedNewMapping {
  const fields = requestObject(request);
  const remote = parseRemotePath(fields.remotePath);
  const localPath =
    fields.localPath === undefined || fields.localPath === ""
      ? undefined
      : normalizeLocalPath(fields.localPath, rules);
  const username = optionalString(fields.username, "username");
  const password = optionalString(fields.password, "password");
  if (username !== undefined && password === undefined)
    throw invalidArgument(
      "username was given without a password: pass both, or neither to map as this node's computer account.",
    );
  if (password !== undefined && username === undefined)
    throw invalidArgument(
      "password was given without a username: a password needs its account; pass both, or neither to map as this node's computer account.",
    );
  if (username !== undefined && (username.length > maxUserLength || hasControlCharacter(username)))
    throw invalidArgument("username is too long or contains control characters.");
  if (username !== undefined && accountPart(username) === "")
    throw invalidArgument(
      "username names no account: use user, DOMAIN\\user or user@domain with a non-empty user.",
    );
  // A SecureString ends at NUL, so Windows would log in with a shorter password than the one given.
  if (password?.includes("\u0000") === true)
    throw invalidArgument("password contains a NUL character.");
  const requirePrivacy = fields.requirePrivacy ?? true;
  if (typeof requirePrivacy !== "boolean")
    throw invalidArgument("requirePrivacy must be a boolean.");
  return { remote, localPath, username, password, requirePrivacy };
}
