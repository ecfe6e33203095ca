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

export function requestLine(
  id: number,
  script: Script,
  params: Record<string, WireValue>,
  includeText: boolean,
): string {
  return toLine({
    id,
    name: script.name,
    hash: script.hash,
    ...(includeText ? { text: script.text } : {}),
    params,
  });
}

/** Decodes a frame body; throws when it is not a well-formed response. */
export function decodeBody(base64: string): ResponseBody {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
    throw new SyntaxError("Response frame is not base64.");
  const body = parseJson(Buffer.from(base64, "base64").toString("utf8"));
  if (typeof body !== "object" || body === null)
    throw new SyntaxError("Response frame is not an object.");
  const { ok, count, error } = body as Record<string, unknown>;
  if (
    ok === true &&
    (count === undefined || (typeof count === "number" && Number.isInteger(count)))
  ) {
    return body as ResponseBody;
  }
  if (ok === false && typeof error === "object" && error !== null) return body as ResponseBody;
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
