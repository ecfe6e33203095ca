import { spawn } from "node:child_process";

// Runs in its own process, so its swaps race the calls for real (not between two awaits).
const script = `
const fs = require("node:fs");
const [folder, target] = process.argv.slice(1);
const until = Date.now() + 20000;
const nap = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
let stop = false;
process.stdin.on("end", () => (stop = true)).resume();
console.log("ready");
(function loop() {
  for (let i = 0; i < 100 && !stop && Date.now() < until; i++) {
    try { fs.mkdirSync(folder); } catch {}
    try { fs.writeFileSync(folder + "/f", "x"); } catch {}
    try { fs.renameSync(folder, folder + ".away"); } catch {}
    try { fs.symlinkSync(target, folder, "dir"); } catch {}
    nap();
    try { fs.unlinkSync(folder); } catch {}
    try { fs.renameSync(folder + ".away", folder); } catch {}
    nap();
  }
  if (!stop && Date.now() < until) setImmediate(loop); else process.exit(0);
})();
`;

/**
 * While `work` runs, another process swaps `folder` (a caller's own, host path) for a link to
 * `target` (someone else's) and back, about every millisecond: the folder is moved aside with its
 * files and a link put in its place. Bounded: it stops when `work` ends, or after 20 s. A folder
 * a call removed comes back with a file in it, so removals keep having work to do.
 */
export async function whileSwapping<T>(
  folder: string,
  target: string,
  work: () => Promise<T>,
): Promise<T> {
  const child = spawn(process.execPath, ["-e", script, folder, target], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  await new Promise((resolve, reject) => {
    child.stdout.once("data", resolve);
    child.once("exit", () => reject(new Error("the swapper ended before it was ready")));
  });
  try {
    return await work();
  } finally {
    child.stdin.end();
    await exited;
  }
}

/** Runs `count` calls four at a time, as a node plugin would, and settles them all. */
export async function inBatches(
  count: number,
  call: (i: number) => Promise<unknown>,
): Promise<PromiseSettledResult<unknown>[]> {
  const out: PromiseSettledResult<unknown>[] = [];
  for (let i = 0; i < count; i += 4) {
    out.push(...(await Promise.allSettled([0, 1, 2, 3].map((k) => call(i + k)))));
  }
  return out;
}
