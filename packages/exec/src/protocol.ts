import { randomBytes } from "node:crypto";
import { hostScript } from "./host-script.js";
import { parseJson } from "./json.js";
import type { WireValue } from "./params.js";
import type { PowerShellErrorRecord } from "./powershell-error.js";
import type { Script } from "./script.js";

/** A decoded response frame. */
export type ResponseBody =
  | { readonly ok: true; readonly count: number; readonly value: unknown }
  | { readonly ok: false; readonly error: PowerShellErrorRecord };

function toLine(value: unknown): string {
  return `${Buffer.from(JSON.stringify(value), "utf8").toString("base64")}\n`;
}

/** The first stdin line: the host script itself, read by the bootstrap. */
export const hostLine = `${Buffer.from(hostScript, "utf8").toString("base64")}\n`;

/** A fresh random tag per process: output lines that do not start with it are never responses. */
export function newTag(): string {
  return `csi${randomBytes(12).toString("hex")}`;
}

export function initLine(tag: string, depth: number, modules: readonly string[]): string {
  return toLine({
    tag,
    depth,
    modules: modules.map((m) => ({ s: Buffer.from(m, "utf8").toString("base64") })),
  });
}

/**
 * A request line: `<id> <hash> <text|-> <values|-> [<name> <string>]...`. String parameters
 * (already base64 on the wire) travel as pairs, so the host decodes them without JSON; every
 * other parameter goes in one base64 JSON object. Names are PowerShell parameter names and
 * base64 has no spaces, so a space always separates fields.
 */
export function requestLine(
  id: number,
  script: Script,
  params: Record<string, WireValue>,
  includeText: boolean,
): string {
  let strings = "";
  let values: Record<string, WireValue> | undefined;
  for (const [name, value] of Object.entries(params)) {
    if (isWireString(value)) strings += ` ${name} ${value.s}`;
    else (values ??= {})[name] = value;
  }
  const text = includeText ? Buffer.from(script.text, "utf8").toString("base64") : "-";
  const encodedValues =
    values === undefined ? "-" : Buffer.from(JSON.stringify(values), "utf8").toString("base64");
  return `${id} ${script.hash} ${text} ${encodedValues}${strings}\n`;
}

function isWireString(value: WireValue): value is { s: string } {
  return typeof value === "object" && value !== null && "s" in value;
}

const base64 = /^[A-Za-z0-9+/]*={0,2}$/;

function decodeJson(field: string | undefined, what: string): unknown {
  if (field === undefined || !base64.test(field)) throw new SyntaxError(`${what} is not base64.`);
  return parseJson(Buffer.from(field, "base64").toString("utf8"));
}

/**
 * Decodes a frame body, `r <count> <base64 JSON|->` or `e <base64 JSON error record>`; throws
 * when it is not a well-formed response.
 */
export function decodeBody(body: string): ResponseBody {
  const [kind, first, second, ...rest] = body.split(" ");
  if (kind === "r" && rest.length === 0 && first !== undefined && /^\d+$/.test(first)) {
    const count = Number(first);
    if (count === 0 && second === "-") return { ok: true, count, value: undefined };
    if (count > 0) return { ok: true, count, value: decodeJson(second, "The result") };
  }
  if (kind === "e" && second === undefined) {
    const error = decodeJson(first, "The error record");
    if (typeof error === "object" && error !== null && !Array.isArray(error)) {
      return { ok: false, error: error as PowerShellErrorRecord };
    }
  }
  throw new SyntaxError("Response frame has neither a result nor an error record.");
}

/** Splits a byte stream into lines and routes tagged frames apart from everything else. */
export class FrameReader {
  private pending = "";

  constructor(
    private readonly tag: string,
    private readonly onFrame: (id: string, body: string) => void,
    private readonly onNoise: (line: string) => void,
  ) {}

  push(chunk: string): void {
    this.pending += chunk;
    let newline = this.pending.indexOf("\n");
    while (newline !== -1) {
      const line = this.pending.slice(0, newline).replace(/\r$/, "");
      this.pending = this.pending.slice(newline + 1);
      this.route(line);
      newline = this.pending.indexOf("\n");
    }
  }

  /** Routes a last line that had no newline (spawn mode reads the whole output at once). */
  flush(): void {
    if (this.pending !== "") this.route(this.pending.replace(/\r$/, ""));
    this.pending = "";
  }

  private route(line: string): void {
    const prefix = `${this.tag} `;
    if (!line.startsWith(prefix)) {
      if (line.trim() !== "") this.onNoise(line);
      return;
    }
    const rest = line.slice(prefix.length);
    const space = rest.indexOf(" ");
    if (space === -1) this.onFrame(rest, "");
    else this.onFrame(rest.slice(0, space), rest.slice(space + 1));
  }
}
