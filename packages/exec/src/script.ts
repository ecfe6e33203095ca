import { createHash } from "node:crypto";
import { CsiProxyError } from "./errors.js";

const scriptBrand = Symbol.for("csi-proxy.script");
const registryKey = Symbol.for("csi-proxy.script-registry");

/**
 * A constant PowerShell script. Its only inputs are the parameters of its `param()` block,
 * bound by name from the `params` object given to {@link PowerShell.run}.
 */
export interface Script {
  /** A stable name used in errors and diagnostics, e.g. `disk.listLocations`. */
  readonly name: string;
  /** The script text: the raw template, except that \` and \${ stand for ` and ${. */
  readonly text: string;
  /** SHA-256 of the text: session processes compile each script once and reuse it by this key. */
  readonly hash: string;
  /** Structural across duplicate installs; {@link isScript} checks a `Symbol.for` brand at run time. */
  readonly [Symbol.toStringTag]: "CsiProxyScript";
}

/** The tag that defines a script: any `${}` substitution is a type error (`never`) and throws. */
export type ScriptTag = (strings: TemplateStringsArray, ...substitutions: never[]) => Script;

type Registry = Map<string, Script>;

function registry(): Registry {
  // A global keyed by Symbol.for, so two installed copies of this package share one list.
  const holder = globalThis as unknown as Record<symbol, Registry | undefined>;
  const existing = holder[registryKey];
  if (existing !== undefined) return existing;
  const created: Registry = new Map();
  holder[registryKey] = created;
  return created;
}

function define(name: string, strings: TemplateStringsArray, substitutions: unknown[]): Script {
  if (substitutions.length > 0 || strings.length !== 1) {
    throw new CsiProxyError(
      `Script ${name} uses \${} substitution; pass values as parameters of its param() block instead.`,
      { code: "INVALID_ARGUMENT" },
    );
  }
  // Raw text keeps Windows paths' backslashes; \` and \${ are the only ways to write ` and ${ in a template.
  const text = (strings.raw[0] ?? "").replace(/\\(`|\$\{)/g, "$1");
  const hash = createHash("sha256").update(text).digest("hex");
  const script: Script = Object.freeze({
    name,
    text,
    hash,
    [Symbol.toStringTag]: "CsiProxyScript" as const,
    [scriptBrand]: true,
  });
  registry().set(`${name}\u0000${hash}`, script);
  return script;
}

function isTemplate(value: unknown): value is TemplateStringsArray {
  return Array.isArray(value) && Array.isArray((value as { raw?: unknown }).raw);
}

/**
 * Defines a constant PowerShell script, optionally named.
 *
 * @example
 * ```ts
 * const getDiskSize = ps("disk.size")`
 *   param([uint32]$Number)
 *   (Get-Disk -Number $Number).Size
 * `;
 * const size = await shell.run<number>(getDiskSize, { Number: 1 });
 * ```
 */
export function ps(name: string): ScriptTag;
export function ps(strings: TemplateStringsArray, ...substitutions: never[]): Script;
export function ps(first: string | TemplateStringsArray, ...rest: unknown[]): Script | ScriptTag {
  if (isTemplate(first)) return define(`script-${anonymousName(first)}`, first, rest);
  if (typeof first !== "string" || first.trim() === "") {
    throw new CsiProxyError("ps() takes a non-empty script name or a template.", {
      code: "INVALID_ARGUMENT",
    });
  }
  return (strings: TemplateStringsArray, ...substitutions: never[]) =>
    define(first, strings, substitutions);
}

function anonymousName(strings: TemplateStringsArray): string {
  return createHash("sha256").update(strings.raw.join("")).digest("hex").slice(0, 8);
}

/** Whether a value is a script made by {@link ps} (and not, say, a string someone built). */
export function isScript(value: unknown): value is Script {
  return (
    typeof value === "object" &&
    value !== null &&
    (value as Record<symbol, unknown>)[scriptBrand] === true
  );
}

/** Every script defined so far in this process, for static checks over a package's scripts. */
export function definedScripts(): readonly Script[] {
  return [...registry().values()];
}
