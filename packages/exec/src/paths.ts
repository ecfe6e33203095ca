import { invalidArgument } from "./errors.js";

/** Which path rules apply: Windows (`C:\...`) or POSIX (`/...`). Defaults to the platform's. */
export type PathStyle = "windows" | "posix";

/** The path style of the running platform. */
// `string`, not `NodeJS.Platform`: the published .d.ts must not need @types/node's globals.
export function platformPathStyle(platform: string = process.platform): PathStyle {
  return platform === "win32" ? "windows" : "posix";
}

/** Options for {@link normalizePath}. */
export interface PathRuleOptions {
  /** Which rules to apply. */
  readonly style: PathStyle;
  /** Drive that root-relative Windows paths (`\var\lib\kubelet`) resolve to. Default `C:`. */
  readonly systemDrive?: string;
}

const maxPath = 260;
const maxLongPath = 32_767;
const longPrefix = "\\\\?\\";
// Windows forbids these in names; ':' would also open an alternate data stream.
const forbiddenWindows = /["*:<>?|]/;
// CONIN$/CONOUT$ open the console as CON does (learn.microsoft.com, CreateFile, "Consoles").
const reservedDevice =
  /^(con|conin\$|conout\$|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])(\..*)?$/i;

/**
 * Validates an absolute path by the platform's rules and returns it normalised (single
 * separators, no `.` segments or trailing separator); throws `INVALID_ARGUMENT` otherwise.
 *
 * Windows rules follow upstream's ValidatePathWindows, with documented differences: `\\?\X:\`
 * long paths are accepted (up to 32,767 characters), root-relative paths take the system drive,
 * only `..` *segments* are rejected (not `a..b`), `<`, `>`, control characters and reserved
 * device names (`NUL`, `COM1`, `CONIN$`, ...) are rejected too, and the 260 limit counts
 * characters.
 *
 * @example
 * ```ts
 * normalizePath("\\var\\lib\\kubelet\\\\pods\\", { style: "windows" }); // "C:\\var\\lib\\kubelet\\pods"
 * normalizePath("C:\\a\\..\\b", { style: "windows" }); // throws INVALID_ARGUMENT
 * ```
 */
export function normalizePath(path: unknown, options: PathRuleOptions): string {
  if (typeof path !== "string" || path === "") throw invalidArgument("The path is empty.");
  if (path.includes("\u0000")) throw invalidArgument("The path contains a NUL character.");
  return options.style === "windows"
    ? normalizeWindows(path, options.systemDrive ?? "C:")
    : normalizePosix(path);
}

function normalizeWindows(input: string, systemDrive: string): string {
  let path = input;
  let limit = maxPath;
  if (path.startsWith(longPrefix)) {
    path = path.slice(longPrefix.length);
    limit = maxLongPath;
    if (!/^[a-zA-Z]:\\/.test(path)) {
      throw invalidArgument(
        `Only drive-letter long paths (\\\\?\\X:\\...) are supported: ${input}`,
      );
    }
  } else if (path.startsWith("\\\\")) {
    throw invalidArgument(`UNC paths are not supported here: ${input}`);
  } else if (path.startsWith("\\")) {
    if (!/^[a-zA-Z]:$/.test(systemDrive))
      throw invalidArgument(`systemDrive must look like "C:", got ${systemDrive}`);
    path = `${systemDrive}${path}`;
  }
  if (!/^[a-zA-Z]:\\/.test(path)) throw invalidArgument(`Not an absolute Windows path: ${input}`);
  if (path.length > limit)
    throw invalidArgument(`The path is longer than ${limit} characters: ${input}`);
  const rest = path.slice(3);
  if (rest.includes("/")) throw invalidArgument(`The path mixes / into a Windows path: ${input}`);
  if (forbiddenWindows.test(rest) || hasControlCharacter(rest))
    throw invalidArgument(`The path contains invalid characters: ${input}`);
  const segments = rest.split("\\").filter((s) => s !== "" && s !== ".");
  for (const segment of segments) {
    if (/^\.+$/.test(segment))
      throw invalidArgument(`The path contains a '${segment}' segment: ${input}`);
    if (reservedDevice.test(segment))
      throw invalidArgument(`The path names a reserved device (${segment}): ${input}`);
  }
  return `${path.slice(0, 2).toUpperCase()}\\${segments.join("\\")}`;
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return true;
  return false;
}

function normalizePosix(input: string): string {
  if (!input.startsWith("/")) throw invalidArgument(`Not an absolute path: ${input}`);
  const segments = input.split("/").filter((s) => s !== "" && s !== ".");
  if (segments.includes("..")) throw invalidArgument(`The path contains a '..' segment: ${input}`);
  return `/${segments.join("/")}`;
}

/** The separator of a path style. */
export function separatorOf(style: PathStyle): string {
  return style === "windows" ? "\\" : "/";
}

/**
 * A name as NTFS compares it: each UTF-16 unit upper-cased on its own, one unit to one unit, as
 * the volume's `$UpCase` table does (RtlUpcaseUnicodeChar). Unlike JavaScript's full case mapping,
 * the KELVIN SIGN (U+212A) stays distinct from `K`, `ß` does not become `SS`, and surrogates are
 * left alone. A letter outside ASCII never folds into ASCII here (dotless `ı` stays apart from
 * `I`, long `ſ` from `S`), so a look-alike of an allowed root can only be refused, never let in.
 * The table is written when the volume is formatted, so one formatted by an old Windows may fold
 * fewer non-ASCII letters than this.
 *
 * @example
 * ```ts
 * foldWindowsName("C:\\Var\\Lib") === foldWindowsName("c:\\var\\lib"); // true
 * foldWindowsName("\u212Aubelet") === foldWindowsName("kubelet"); // false
 * ```
 */
export function foldWindowsName(name: string): string {
  let folded = "";
  for (let i = 0; i < name.length; i++) folded += upcaseUnit(name.charCodeAt(i));
  return folded;
}

const upcaseCache = new Map<number, string>();

function upcaseUnit(unit: number): string {
  const self = String.fromCharCode(unit);
  if (unit < 0x61) return self;
  if (unit <= 0x7a) return String.fromCharCode(unit - 0x20);
  if (unit < 0x80 || (unit >= 0xd800 && unit <= 0xdfff)) return self;
  let upper = upcaseCache.get(unit);
  if (upper === undefined) {
    const full = self.toUpperCase();
    // One unit to one unit, as a table indexed by UTF-16 unit: no room for "SS".
    upper = full.length === 1 && full.charCodeAt(0) >= 0x80 ? full : self;
    upcaseCache.set(unit, upper);
  }
  return upper;
}

/**
 * Whether `path` is `root` or inside it, on a separator boundary (so `C:\kubeletX` is not inside
 * `C:\kubelet`). On Windows names compare as NTFS compares them ({@link foldWindowsName}), not
 * with JavaScript's case mapping. Both must already be normalised.
 *
 * @example
 * ```ts
 * isWithin("C:\\var\\lib\\kubelet\\pods", "C:\\var\\lib\\kubelet", "windows"); // true
 * isWithin("C:\\var\\lib\\kubeletX", "C:\\var\\lib\\kubelet", "windows"); // false
 * ```
 */
export function isWithin(path: string, root: string, style: PathStyle): boolean {
  const fold = (s: string) => (style === "windows" ? foldWindowsName(s) : s);
  const p = fold(path);
  const r = fold(root);
  if (p === r) return true;
  const sep = separatorOf(style);
  return p.startsWith(r.endsWith(sep) ? r : r + sep);
}
