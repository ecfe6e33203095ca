// The files the executable cannot run from memory (koffi's native module, the proto files
// proto-loader reads, the policy schema, package.json for the version), written out once into a
// folder beside the executable and checked byte for byte on every start before anything loads them.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

/** One file carried inside the executable, named by its path in the package (`proto/disk/v1/api.proto`). */
export interface RuntimeFile {
  readonly name: string;
  readonly data: Uint8Array;
}

/** The folder beside the executable that holds every version's runtime files. */
export const runtimeFolderName = "csi-proxy-server.runtime";

/** What the files are, in 16 hex digits: the folder's name, so each build has its own. */
export function runtimeDigest(files: readonly RuntimeFile[]): string {
  const hash = createHash("sha256");
  for (const file of [...files].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    hash.update(`${file.name}\0${String(file.data.byteLength)}\0`);
    hash.update(file.data);
  }
  return hash.digest("hex").slice(0, 16);
}

function safeName(name: string): string {
  if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(name) || name.split("/").includes(".."))
    throw new Error(`not a runtime file name: ${name}`);
  return name;
}

function holds(dir: string, files: readonly RuntimeFile[]): boolean {
  return files.every((file) => {
    const path = join(dir, safeName(file.name));
    return existsSync(path) && Buffer.from(file.data).equals(readFileSync(path));
  });
}

/**
 * The folder `<base>/<digest>` holding exactly these bytes: used as it is when every file matches,
 * otherwise (missing, partly written, changed) written afresh in a temporary folder and renamed
 * into place, so a reader never sees a half-written file.
 */
export function materialize(base: string, files: readonly RuntimeFile[]): string {
  const target = join(base, runtimeDigest(files));
  if (holds(target, files)) return target;
  const temp = `${target}.tmp-${String(process.pid)}-${randomBytes(4).toString("hex")}`;
  try {
    for (const file of files) {
      const path = join(temp, safeName(file.name));
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.data, { flag: "wx" });
    }
    if (existsSync(target)) {
      // Changed or incomplete: moved aside first, as Windows renames onto no existing folder.
      const stale = `${target}.stale-${randomBytes(4).toString("hex")}`;
      renameSync(target, stale);
      rmSync(stale, { recursive: true, force: true });
    }
    try {
      renameSync(temp, target);
    } catch (error) {
      // Another start of the same executable got there first: its copy must match too.
      if (!holds(target, files)) throw error;
    }
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
  if (!holds(target, files)) throw new Error(`${target} does not hold the executable's files`);
  return target;
}
