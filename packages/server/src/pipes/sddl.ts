import { CsiProxyError } from "@csi-proxy/exec";

/** Always granted full control: the pipe must stay reachable by LocalSystem and local administrators. */
const DEFAULT_ACES = "(A;;GA;;;SY)(A;;GA;;;BA)";

/** Two-letter SDDL aliases accepted as extra callers; an explicit list so a typo is never a broad group. */
const ALLOWED_ALIASES: ReadonlySet<string> = new Set(["SY", "BA", "LS", "NS"]);

/** Groups that would reopen the pipe to every local (or anonymous, or network) user. */
const REFUSED: ReadonlyMap<string, string> = new Map([
  ["WD", "Everyone"],
  ["AN", "Anonymous Logon"],
  ["AU", "Authenticated Users"],
  ["NU", "Network"],
  ["S-1-1-0", "Everyone"],
  ["S-1-5-7", "Anonymous Logon"],
  ["S-1-5-11", "Authenticated Users"],
  ["S-1-5-2", "Network"],
]);

const SID_PATTERN = /^S-1-(\d{1,15})((?:-\d{1,10}){1,15})$/;
const MAX_AUTHORITY = 2 ** 48 - 1;
const MAX_SUB_AUTHORITY = 2 ** 32 - 1;

function invalid(message: string): CsiProxyError {
  return new CsiProxyError(message, { code: "INVALID_ARGUMENT" });
}

/** The SID as it goes into the SDDL (aliases upper-case, `S-1-…` canonical), or throws. */
function normaliseSid(raw: unknown): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 200) {
    throw invalid(
      `pipe SID must be a non-empty string, got ${typeof raw === "string" ? JSON.stringify(raw) : typeof raw}`,
    );
  }
  const upper = raw.trim().toUpperCase();
  const refused = REFUSED.get(upper);
  if (refused !== undefined) {
    throw invalid(`pipe SID ${raw} (${refused}) would expose the pipe to every caller; refused`);
  }
  if (ALLOWED_ALIASES.has(upper)) return upper;
  const match = SID_PATTERN.exec(upper);
  if (match === null) {
    throw invalid(
      `pipe SID ${JSON.stringify(raw)} is neither S-1-<authority>-<sub>… nor one of ${[...ALLOWED_ALIASES].join(", ")}`,
    );
  }
  const authority = Number(match[1]);
  const subs = (match[2] ?? "").slice(1).split("-").map(Number);
  if (authority > MAX_AUTHORITY || subs.some((sub) => sub > MAX_SUB_AUTHORITY)) {
    throw invalid(`pipe SID ${raw} has an out-of-range authority`);
  }
  // Leading zeros would make two spellings of one SID; keep one.
  const canonical = `S-1-${authority}-${subs.join("-")}`;
  const again = REFUSED.get(canonical);
  if (again !== undefined) {
    throw invalid(`pipe SID ${raw} (${again}) would expose the pipe to every caller; refused`);
  }
  return canonical;
}

/**
 * The security descriptor (SDDL) for a csi-proxy pipe: a protected DACL granting SYSTEM and
 * BUILTIN\Administrators full control, plus read/write for each extra SID.
 *
 * Extra SIDs get `GRGW`, what a client opening with GENERIC_READ|GENERIC_WRITE needs; Windows
 * maps GENERIC_WRITE on a pipe to include FILE_CREATE_PIPE_INSTANCE, so grant only SIDs trusted
 * not to create rival instances. Everyone, Anonymous, Authenticated Users and Network are refused.
 *
 * @throws CsiProxyError INVALID_ARGUMENT for a malformed or refused SID.
 */
export function pipeSddl(sids: readonly string[] = []): string {
  if (!Array.isArray(sids)) throw invalid("pipe SIDs must be an array of strings");
  const extra: string[] = [];
  for (const raw of sids) {
    const sid = normaliseSid(raw);
    // SY and BA already hold GA; a weaker duplicate ACE would only confuse a reader.
    if (sid === "SY" || sid === "BA" || sid === "S-1-5-18" || sid === "S-1-5-32-544") continue;
    if (!extra.includes(sid)) extra.push(sid);
  }
  return `D:P${DEFAULT_ACES}${extra.map((sid) => `(A;;GRGW;;;${sid})`).join("")}`;
}
