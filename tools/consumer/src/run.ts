import { execFile } from "node:child_process";

/**
 * The environment a nested npm/pnpm/node sees: no npm_config_* leaking in from the pnpm running
 * us, and no VITEST* from the vitest running us (a nested vitest would take it as its own).
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|pnpm_|PNPM_|VITEST)/i.test(key)) env[key] = value;
  }
  return { ...env, ...extra };
}

/** Runs a command with no stdin (CI has none), resolving its output or rejecting with it. */
export function run(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: Record<string, string> },
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      command,
      args,
      { cwd: options.cwd, env: cleanEnv(options.env), maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error === null) resolve(stdout);
        else reject(new Error(`${command} ${args.join(" ")} failed:\n${stdout}\n${stderr}`));
      },
    );
    child.stdin?.end();
  });
}
