import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { createPowerShell, isCsiProxyError, type PowerShell } from "@csi-proxy/exec";
import { Filesystem } from "@csi-proxy/filesystem";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Volume } from "@csi-proxy/volume";
import { Simulator, windowsFilesystemHost } from "@csi-proxy/winsim";
import fc from "fast-check";
import { afterAll, beforeAll, expect, it } from "vitest";

const gib = 1024 ** 3;

/** Every file under `dir` with its content, by relative path. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (current: string) => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) walk(path);
      else files.set(relative(dir, path), readFileSync(path, "utf8"));
    }
  };
  walk(dir);
  return files;
}

const segment = fc.stringMatching(/^[a-z0-9]{1,6}$/);
const tree = fc.uniqueArray(fc.array(segment, { minLength: 1, maxLength: 3 }), {
  minLength: 1,
  maxLength: 6,
  selector: (parts) => parts.join("/"),
});

function writeTree(root: string, paths: readonly (readonly string[])[], tag: string): void {
  for (const parts of paths) {
    const file = join(root, ...parts.slice(0, -1), `${parts.at(-1) ?? "f"}.dat`);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, `${tag}:${parts.join("/")}`);
  }
}

// The property issue 9 asks for, on the simulator with Node's Windows view of its folders: a
// volume mounted at a staging folder (New-Partition without a letter, Add-PartitionAccessPath)
// keeps every file whatever removal runs on a folder above it.
describeWithPwsh("a volume mounted at a staging folder survives removals above it", (pwsh) => {
  let sim: Simulator;
  let shell: PowerShell;
  let volume: Volume;
  let fs: Filesystem;
  let volumeId: string;
  let volumeDir: string;
  let kubelet: string;
  let staging: string;

  beforeAll(async () => {
    sim = await Simulator.create({
      disks: [
        { number: 1, size: gib, partitionStyle: "GPT", partitions: [{ fileSystem: "NTFS" }] },
      ],
    });
    shell = createPowerShell(sim.shellOptions({ executable: pwsh }));
    volume = new Volume({ shell, pathStyle: "posix" });
    fs = new Filesystem({ host: windowsFilesystemHost(sim), pathStyle: "posix" });
    const guid = sim.state().partitions.find((p) => p.diskNumber === 1 && p.volume)?.volume;
    volumeId = `\\\\?\\Volume{${guid ?? ""}}\\`;
    volumeDir = sim.volumeDir(guid ?? "");
    kubelet = join(sim.root, "var", "lib", "kubelet");
    staging = join(kubelet, "plugins", "kubernetes.io", "csi", "pv", "vol1", "globalmount");
    await fs.mkdir({ path: staging });
    await volume.mountVolume({ volumeId, targetPath: staging });
  });

  afterAll(async () => {
    await shell.close();
    await sim.dispose();
  });

  it("is a folder for lstat and a link for isSymlink, as Node reports it on Windows", async () => {
    expect((await windowsFilesystemHost(sim).lstat(staging)).isDirectory()).toBe(true);
    expect(await fs.isSymlink({ path: staging })).toEqual({ isSymlink: true });
  });

  it("rmdir with force and rmdirContents on any parent delete nothing and say why", async () => {
    const ancestors: string[] = [];
    for (let p = dirname(staging); p.startsWith(kubelet); p = dirname(p)) ancestors.push(p);
    await fc.assert(
      fc.asyncProperty(
        tree,
        tree,
        fc.constantFrom(...ancestors),
        fc.constantFrom("rmdir", "rmdirContents"),
        async (volumeFiles, siblingFiles, target, operation) => {
          for (const name of readdirSync(volumeDir))
            rmSync(join(volumeDir, name), { recursive: true });
          writeTree(staging, volumeFiles, "pv");
          writeTree(join(dirname(staging), "sibling"), siblingFiles, "other");
          const before = snapshot(volumeDir);
          const siblings = snapshot(join(dirname(staging), "sibling"));
          const call =
            operation === "rmdir"
              ? fs.rmdir({ path: target, force: true })
              : fs.rmdirContents({ path: target });
          const error: unknown = await call.then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(isCsiProxyError(error) && error.code).toBe("FAILED_PRECONDITION");
          expect(snapshot(volumeDir)).toEqual(before);
          // Refused before anything was deleted: the staging folder's neighbours are intact too.
          expect(snapshot(join(dirname(staging), "sibling"))).toEqual(siblings);
          expect(existsSync(staging)).toBe(true);
        },
      ),
      { numRuns: 40, seed: 9_2026 },
    );
    expect(sim.state().partitions.find((p) => p.diskNumber === 1 && p.volume)?.accessPaths).toEqual(
      [`${staging}/`],
    );
  });

  it("after unmountVolume the parent is removed and the volume keeps its files", async () => {
    const before = snapshot(volumeDir);
    expect(before.size).toBeGreaterThan(0);
    await volume.unmountVolume({ volumeId, targetPath: staging });
    await fs.rmdir({ path: join(kubelet, "plugins"), force: true });
    expect(existsSync(join(kubelet, "plugins"))).toBe(false);
    expect(snapshot(volumeDir)).toEqual(before);
  });

  // azuredisk's host-process Unmount is Rmdir(staging, force) = os.RemoveAll, whose
  // RemoveDirectoryW removes the mount folder and leaves the volume alone (issue #20 B1).
  it("rmdir of the staging mount point itself unmounts it, keeps the data, and it mounts again", async () => {
    await fs.mkdir({ path: staging });
    await volume.mountVolume({ volumeId, targetPath: staging });
    writeFileSync(join(staging, "data.txt"), "kept");
    expect((await windowsFilesystemHost(sim).lstat(staging)).isDirectory()).toBe(true);
    await fs.rmdir({ path: staging, force: true });
    expect(existsSync(staging)).toBe(false);
    // A retried unstage converges.
    await fs.rmdir({ path: staging, force: true });
    const again = join(dirname(staging), "globalmount2");
    await fs.mkdir({ path: again });
    await volume.mountVolume({ volumeId, targetPath: again });
    expect(readFileSync(join(again, "data.txt"), "utf8")).toBe("kept");
    expect(await volume.getVolumeIdFromTargetPath({ targetPath: again })).toEqual({ volumeId });
    // A parent of the new mount point is still refused, with nothing removed.
    await expect(fs.rmdir({ path: dirname(again), force: true })).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
    });
    expect(readFileSync(join(again, "data.txt"), "utf8")).toBe("kept");
  });
});
