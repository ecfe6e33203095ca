import { parseArgs } from "node:util";
import type { ExecMode } from "@csi-proxy/exec";

/** The demo's command line: `--mode spawn|session`, `--verbose`, `--json`. */
export interface DemoArgs {
  readonly mode: ExecMode;
  readonly verbose: boolean;
  readonly json: boolean;
  /** `sim` (default): the full lifecycle on the simulated host; `real`: read-only steps on this Windows machine. */
  readonly host: "sim" | "real";
}

export function parseDemoArgs(argv: readonly string[]): DemoArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      mode: { type: "string", default: "session" },
      verbose: { type: "boolean", default: false },
      json: { type: "boolean", default: false },
      host: { type: "string", default: "sim" },
    },
    strict: true,
  });
  if (values.mode !== "session" && values.mode !== "spawn") {
    throw new Error(`--mode must be "session" or "spawn", got "${values.mode}"`);
  }
  if (values.host !== "sim" && values.host !== "real") {
    throw new Error(`--host must be "sim" or "real", got "${values.host}"`);
  }
  if (values.host === "real" && process.platform !== "win32") {
    throw new Error(
      "--host real runs only on Windows; elsewhere the demo uses the simulated host.",
    );
  }
  return { mode: values.mode, verbose: values.verbose, json: values.json, host: values.host };
}
