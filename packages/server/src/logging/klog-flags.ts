/**
 * Upstream's csi-proxy.exe takes klog's flags (`klog.InitFlags(nil)` in cmd/csi-proxy/main.go),
 * so service command lines written for it carry them (`-v=4`, `-log_file=… -logtostderr=false`).
 * They are read here as Go's flag package reads them, with klog's defaults and meanings
 * (kubernetes/klog klog.go, `init`); the ones about klog's own text headers or source lines are
 * accepted and have no effect on these JSON lines.
 */

/** klog's severities, lowest first: a threshold lets through its own and those above. */
export const klogSeverities = ["INFO", "WARNING", "ERROR", "FATAL"] as const;

/** Where the server's log goes and how much of it, as klog's flags say. */
export interface LogSettings {
  /** `-v` (default 0): 2 and up adds a line per successful call, 4 and up one per call start. */
  readonly verbosity: number;
  /** `-logtostderr` (default true): to stderr only; the file flags have no effect. */
  readonly toStderr: boolean;
  /** `-alsologtostderr` (default false): with a file, to stderr as well. */
  readonly alsoToStderr: boolean;
  /** `-alsologtostderrthreshold` (default 0, INFO): what `-alsologtostderr` lets through. */
  readonly alsoToStderrThreshold: number;
  /** `-stderrthreshold` (default 2, ERROR): with a file, what also goes to stderr. */
  readonly stderrThreshold: number;
  /** `-legacy_stderr_threshold_behavior` (default true): `-stderrthreshold` ignored with `-logtostderr`. */
  readonly legacyStderrThreshold: boolean;
  /** `-log_file`: the file, when not to stderr. */
  readonly logFile?: string;
  /** `-log_dir` (default: the temporary folder): the file's folder when `-log_file` is not given. */
  readonly logDir?: string;
  /** `-log_file_max_size` in megabytes (default 1800; 0: no limit). */
  readonly maxSizeMB: number;
}

/** klog's defaults. */
export const defaultLogSettings: LogSettings = {
  verbosity: 0,
  toStderr: true,
  alsoToStderr: false,
  alsoToStderrThreshold: 0,
  stderrThreshold: 2,
  legacyStderrThreshold: true,
  maxSizeMB: 1800,
};

/** A klog flag with a value that cannot be read; its message says why. */
export class KlogFlagError extends Error {}

type Parse = (value: string) => Partial<LogSettings>;

// strconv.ParseBool.
function bool(flag: string, value: string): boolean {
  if (["1", "t", "T", "TRUE", "true", "True"].includes(value)) return true;
  if (["0", "f", "F", "FALSE", "false", "False"].includes(value)) return false;
  throw new KlogFlagError(`invalid boolean value ${JSON.stringify(value)} for -${flag}`);
}

// strconv.ParseInt(value, 10, 32), as klog's Level.Set and severityValue.Set read numbers.
function int32(flag: string, value: string): number {
  const number = /^[+-]?\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!(Math.abs(number) <= 2 ** 31 - 1))
    throw new KlogFlagError(`invalid value ${JSON.stringify(value)} for -${flag}`);
  return number;
}

// severityValue.Set: a name in any case, or a number.
function severity(flag: string, value: string): number {
  const index = (klogSeverities as readonly string[]).indexOf(value.toUpperCase());
  return index === -1 ? int32(flag, value) : index;
}

// strconv.ParseUint(value, 0, 64), as Go's Uint64Var reads it: 0x, 0o, 0b or a leading 0.
function uint64(flag: string, value: string): number {
  const digits = value.replace(/_/g, "");
  const octal = /^0[0-7]+$/.test(digits) ? `0o${digits.slice(1)}` : digits;
  const ok = /^(?:0[xX][\da-fA-F]+|0[oO][0-7]+|0[bB][01]+|\d+)$/.test(octal);
  if (!ok || value.startsWith("_") || value.endsWith("_"))
    throw new KlogFlagError(`invalid value ${JSON.stringify(value)} for -${flag}`);
  return Number(BigInt(octal));
}

const noEffect: Parse = () => ({});

// Flags that take a value (the next argument when not given with `=`), then bool flags.
const valueFlags: Readonly<Record<string, Parse>> = {
  v: (value) => ({ verbosity: int32("v", value) }),
  log_file: (value) => (value === "" ? {} : { logFile: value }),
  log_dir: (value) => (value === "" ? {} : { logDir: value }),
  log_file_max_size: (value) => ({ maxSizeMB: uint64("log_file_max_size", value) }),
  stderrthreshold: (value) => ({ stderrThreshold: severity("stderrthreshold", value) }),
  alsologtostderrthreshold: (value) => ({
    alsoToStderrThreshold: severity("alsologtostderrthreshold", value),
  }),
  vmodule: noEffect,
  log_backtrace_at: noEffect,
};

const boolFlags: Readonly<Record<string, (on: boolean) => Partial<LogSettings>>> = {
  logtostderr: (on) => ({ toStderr: on }),
  alsologtostderr: (on) => ({ alsoToStderr: on }),
  legacy_stderr_threshold_behavior: (on) => ({ legacyStderrThreshold: on }),
  add_dir_header: () => ({}),
  skip_headers: () => ({}),
  skip_log_headers: () => ({}),
  one_output: () => ({}),
};

/** Every klog flag upstream's csi-proxy.exe accepts. */
export const klogFlagNames: readonly string[] = [
  ...Object.keys(valueFlags),
  ...Object.keys(boolFlags),
];

/**
 * Takes klog's flags out of `argv` the way Go's flag package reads them (`-name` or `--name`;
 * `-name=value`, or `-name value` for a flag that is not a bool; a bool as `-name` or
 * `-name=false`), and returns the other arguments, in order, with the settings they make.
 */
export function takeKlogFlags(argv: readonly string[]): {
  rest: string[];
  settings: LogSettings;
} {
  const rest: string[] = [];
  let settings: LogSettings = defaultLogSettings;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? "";
    const match = /^--?([a-z_]+)(?:=([\s\S]*))?$/.exec(arg);
    const name = match?.[1] ?? "";
    const inline = match?.[2];
    const asBool = Object.hasOwn(boolFlags, name) ? boolFlags[name] : undefined;
    const asValue = Object.hasOwn(valueFlags, name) ? valueFlags[name] : undefined;
    if (asBool !== undefined) {
      settings = { ...settings, ...asBool(inline === undefined ? true : bool(name, inline)) };
    } else if (asValue !== undefined) {
      let value = inline;
      if (value === undefined) {
        // Go takes the next argument whatever it looks like.
        if (i + 1 >= argv.length) throw new KlogFlagError(`flag needs an argument: -${name}`);
        i += 1;
        value = argv[i] ?? "";
      }
      settings = { ...settings, ...asValue(value) };
    } else {
      rest.push(arg);
    }
  }
  return { rest, settings };
}
