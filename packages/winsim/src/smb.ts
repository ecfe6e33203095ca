// SMB: servers, shares with their credentials and Linux backing folders, and global mappings.
// The scenario spec a test writes, and the state the PowerShell side reads and updates.
import { createHash } from "node:crypto";

/** MSFT_SmbGlobalMapping.Status codes by the name Get-SmbGlobalMapping shows. */
export const smbStatuses = {
  /** The connection is valid. */
  OK: 0,
  /** The connection is paused. */
  Paused: 1,
  /** The connection is disconnected (its session was lost). */
  Disconnected: 2,
  /** A network error occurred. */
  NetworkError: 3,
  /** The connection is being made. */
  Connecting: 4,
  /** The connection is being made again. */
  Reconnecting: 5,
  /** The connection is unavailable. */
  Unavailable: 6,
} as const;

/** An SMB mapping status by name (`OK`, `Unavailable`, ...), the keys of `smbStatuses`. */
export type SmbStatusName = keyof typeof smbStatuses;

/** A share on a simulated server; its files live in `<sim.dir>/shares/<server>/<share>/`. */
export interface SmbShareSpec {
  /** The share's name, as it appears in `\\server\share`. */
  name: string;
  /** Accounts of the server allowed on this share (others get error 5). Default: all of them. */
  users?: readonly string[];
  /**
   * Whether the node's computer account (a mapping made without a credential, i.e. Kerberos as
   * `DOMAIN\NODE$`) may use this share. Default false, the less convenient option.
   */
  computerAccount?: boolean;
}

/** A simulated SMB server. Names compare case-insensitively, as Windows does. */
export interface SmbServerSpec {
  /** Host name or IP address, as it appears in `\\server\share`. */
  name: string;
  /** Accounts: user name (e.g. `CONTOSO\alice`) → password. */
  accounts?: Readonly<Record<string, string>>;
  /** A string is a share everyone with an account may use. */
  shares?: readonly (string | SmbShareSpec)[];
  /** Whether the server offers SMB encryption; `-RequirePrivacy $true` fails without it. Default true. */
  encryption?: boolean;
}

/** A global mapping that exists when the host starts. */
export interface SmbMappingSpec {
  /** The mapped share, `\\server\share`. */
  remotePath: string;
  /** An account of the mapped server; absent: mapped without a credential (the computer account). */
  user?: string;
  /** Drive letter (`G:`); default none. */
  localPath?: string;
  /** The mapping's status, by name or raw code. Default `OK`. */
  status?: SmbStatusName | number;
  /** Whether the mapping requires SMB encryption. Default true. */
  requirePrivacy?: boolean;
  /** Mapped with a password the server no longer accepts (the password changed since). */
  stale?: boolean;
}

/** What a scenario declares for this area. */
export interface SmbSpec {
  /** The simulated SMB servers. */
  servers?: readonly SmbServerSpec[];
  /** The global mappings the host starts with. */
  mappings?: readonly SmbMappingSpec[];
}

/** A server account; only a hash of the password is stored, so state.json holds no secret. */
export interface SmbAccountState {
  /** The user name, e.g. `CONTOSO\alice`. */
  user: string;
  /** The password's hash (`smbPasswordHash`). */
  passwordSha256: string;
}

/** A share in state.json, backed by a folder of the state directory (`smbShareDir`). */
export interface SmbShareState {
  /** The share's name. */
  name: string;
  /** Allowed accounts, or null for every account of the server. */
  users: string[] | null;
  /** Whether the node's computer account (credential-less mappings) may use it. */
  computerAccount: boolean;
}

/** An SMB server in state.json: its accounts (password hashes), shares and settings. */
export interface SmbServerState {
  /** Host name or IP address, as it appears in `\\server\share`. */
  name: string;
  /** Whether the server offers SMB encryption. */
  encryption: boolean;
  /** The server's accounts. */
  accounts: SmbAccountState[];
  /** The server's shares. */
  shares: SmbShareState[];
}

/** One MSFT_SmbGlobalMapping. */
export interface SmbGlobalMappingState {
  /** As given to New-SmbGlobalMapping. */
  remotePath: string;
  /** Drive letter, or "" (what Windows shows for a mapping without one). */
  localPath: string;
  /** Raw code: 0 OK, 1 Paused, 2 Disconnected, 3 NetworkError, 4 Connecting, 5 Reconnecting, 6 Unavailable. */
  status: number;
  /** The user name of the credential (never the password); "" when made without one. */
  user: string;
  /** Hash of the password it was made with ("" without a credential): differs after a password change. */
  passwordSha256: string;
  /** Whether the mapping requires SMB encryption. */
  requirePrivacy: boolean;
  /** Whether the mapping requires SMB signing. */
  requireIntegrity: boolean;
  /** Whether writes go through to the server without caching. */
  useWriteThrough: boolean;
  /** Whether the mapping persists across reboots. */
  persistent: boolean;
}

/** This area's part of state.json. */
export interface SmbState {
  /** The format's version. */
  version: 1;
  /** The SMB servers. */
  servers: SmbServerState[];
  /** The node's global mappings. */
  mappings: SmbGlobalMappingState[];
}

/** The hash state.json keeps instead of a password (hex SHA-256 of its UTF-8 bytes). */
export function smbPasswordHash(password: string): string {
  return createHash("sha256").update(password, "utf8").digest("hex");
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

function buildServer(spec: SmbServerSpec): SmbServerState {
  return {
    name: spec.name,
    encryption: spec.encryption ?? true,
    accounts: Object.entries(spec.accounts ?? {}).map(([user, password]) => ({
      user,
      passwordSha256: smbPasswordHash(password),
    })),
    shares: (spec.shares ?? []).map((s) =>
      typeof s === "string"
        ? { name: s, users: null, computerAccount: false }
        : {
            name: s.name,
            users: s.users ? [...s.users] : null,
            computerAccount: s.computerAccount ?? false,
          },
    ),
  };
}

/** The account a mapping was made with; a credential-less mapping has neither user nor hash. */
function mappingIdentity(
  spec: SmbMappingSpec,
  servers: SmbServerState[],
): { user: string; passwordSha256: string } {
  if (spec.user === undefined) return { user: "", passwordSha256: "" };
  const server = /^\\\\([^\\]+)\\/.exec(spec.remotePath)?.[1] ?? "";
  const account = servers
    .find((s) => sameName(s.name, server))
    ?.accounts.find((a) => sameName(a.user, spec.user ?? ""));
  if (account === undefined)
    throw new RangeError(
      `Mapping ${spec.remotePath}: ${spec.user} is not an account of its server.`,
    );
  return {
    user: account.user,
    passwordSha256: spec.stale
      ? smbPasswordHash(`stale:${account.passwordSha256}`)
      : account.passwordSha256,
  };
}

function buildMapping(spec: SmbMappingSpec, servers: SmbServerState[]): SmbGlobalMappingState {
  const status = spec.status ?? "OK";
  return {
    remotePath: spec.remotePath,
    localPath: spec.localPath ?? "",
    status: typeof status === "number" ? status : smbStatuses[status],
    ...mappingIdentity(spec, servers),
    requirePrivacy: spec.requirePrivacy ?? true,
    requireIntegrity: false,
    useWriteThrough: false,
    persistent: true,
  };
}

/** Turns the spec into initial state; `root` is the simulator's sandbox folder. */
export function buildSmbState(spec: SmbSpec, _root: string): SmbState {
  const servers = (spec.servers ?? []).map(buildServer);
  return {
    version: 1,
    servers,
    mappings: (spec.mappings ?? []).map((m) => buildMapping(m, servers)),
  };
}
