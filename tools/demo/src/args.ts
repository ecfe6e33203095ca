import { parseArgs } from "node:util";
import type { ExecMode } from "@csi-proxy/exec";

/** The demo's command line: `--mode spawn|session`, `--verbose`, `--json`. */
export interface DemoArgs {
  readonly mode: ExecMode;
  readonly verbose: boolean;
  readonly json: boolean;
}

export function parseDemoArgs(argv: readonly string[]): DemoArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      mode: { type: "string", default: "session" },
      verbose: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
    },
    strict: true,
  });
  if (values.mode !== "session" && values.mode !== "spawn") {
    throw new Error(`--mode must be "session" or "spawn", got "${values.mode}"`);
  }
  return { mode: values.mode, verbose: values.verbose, json: values.json };
}
