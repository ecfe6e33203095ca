import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { ctx, expectCode, join } from "./context.js";

const missingVolume = "\\\\?\\Volume{00000000-0000-0000-0000-00000000c5f0}\\";
const files = { "data/a.txt": "alpha\n", "data/deeper/b.txt": "bravo\n", "c.txt": "charlie\n" };

async function writeFiles(root: string): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    const path = join(root, ...name.split("/"));
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  }
}

/** Every file written by writeFiles, read through the volume itself (not through any mount). */
async function volumeFiles(volumeId: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const name of Object.keys(files)) {
    const path = ctx().host.volumeFilePath(
      volumeId,
      name.split("/").join(ctx().host.pathStyle === "windows" ? "\\" : "/"),
    );
    found[name] = await readFile(path, "utf8").catch(() => "<missing>");
  }
  return found;
}

/** Brings a blank disk online with one formatted volume and returns the volume's id. */
async function prepareVolume(diskNumber: number, label: string): Promise<string> {
  const { disk, volume } = ctx().groups;
  await disk.setDiskState({ diskNumber, isOnline: true });
  await disk.partitionDisk({ diskNumber });
  const [volumeId] = (await volume.listVolumesOnDisk({ diskNumber })).volumeIds;
  if (volumeId === undefined) throw new Error(`disk ${diskNumber} has no volume`);
  if (!(await volume.isVolumeFormatted({ volumeId })).formatted)
    await volume.formatVolume({ volumeId, label });
  return volumeId;
}

export function volumePart(): void {
  describe("volume and filesystem on a folder-mounted volume", () => {
    let volumeB = "";

    it("formats the blank disk's volume (RAW before, formatted after)", async () => {
      const c = ctx();
      const { volume } = c.groups;
      c.diskA = c.host.blankDisks[0]!;
      const [volumeId] = (await volume.listVolumesOnDisk({ diskNumber: c.diskA })).volumeIds;
      c.volumeA = volumeId!;
      expect(await volume.isVolumeFormatted({ volumeId: c.volumeA })).toEqual({ formatted: false });
      await volume.formatVolume({ volumeId: c.volumeA, fileSystem: "NTFS", label: "csiconf-a" });
      expect(await volume.isVolumeFormatted({ volumeId: c.volumeA })).toEqual({ formatted: true });
      expect(await volume.getDiskNumberFromVolumeId({ volumeId: c.volumeA })).toEqual({
        diskNumber: c.diskA,
      });
    });

    it("mounts it at a staging folder, twice (the repeat is a no-op), and writes through it", async () => {
      const c = ctx();
      const { volume, filesystem } = c.groups;
      c.staging = join(c.host.scratchRoot, "plugins", "pv-a", "globalmount");
      await filesystem.mkdir({ path: c.staging });
      await filesystem.mkdir({ path: c.staging });
      expect(await volume.mountVolume({ volumeId: c.volumeA, targetPath: c.staging })).toEqual({
        alreadyMounted: false,
      });
      expect(await volume.mountVolume({ volumeId: c.volumeA, targetPath: c.staging })).toEqual({
        alreadyMounted: true,
      });
      expect(await filesystem.isSymlink({ path: c.staging })).toEqual({ isSymlink: true });
      await writeFiles(c.staging);
      expect(await volumeFiles(c.volumeA)).toEqual(files);
      await volume.writeVolumeCache({ volumeId: c.volumeA });
      const stats = await volume.getVolumeStats({ volumeId: c.volumeA });
      expect(Number(stats.usedBytes)).toBeGreaterThan(0);
      expect(Number(stats.totalBytes)).toBeGreaterThan(Number(stats.usedBytes));
    });

    it("finds the volume from the mount folder, and from items on the mounted volume", async () => {
      const c = ctx();
      const { volume } = c.groups;
      expect(await volume.getVolumeIdFromTargetPath({ targetPath: c.staging })).toEqual({
        volumeId: c.volumeA,
      });
      for (const item of [join(c.staging, "data"), join(c.staging, "data", "a.txt")]) {
        expect(await volume.getClosestVolumeIdFromTargetPath({ targetPath: item })).toEqual({
          volumeId: c.volumeA,
        });
        // An item inside the volume is no mount point: NOT_FOUND, and saying so (5.1's hard-link
        // `.Target` must not send the lookup elsewhere).
        await expect(volume.getVolumeIdFromTargetPath({ targetPath: item })).rejects.toMatchObject({
          code: "NOT_FOUND",
          message: expect.stringMatching(/not a mounted folder/),
        });
      }
    });

    it("links a pod path to the staging folder and removes only the link", async () => {
      const c = ctx();
      const { filesystem } = c.groups;
      const podParent = join(c.host.scratchRoot, "pods", "uid-1", "volumes");
      const pod = join(podParent, "pv-a");
      await filesystem.mkdir({ path: podParent });
      await filesystem.createSymlink({ sourcePath: c.staging, targetPath: pod });
      expect(await filesystem.isSymlink({ path: pod })).toEqual({ isSymlink: true });
      expect(await filesystem.pathExists({ path: join(pod, "c.txt") })).toEqual({ exists: true });
      expect(await filesystem.pathValid({ path: pod })).toEqual({ valid: true });
      await filesystem.rmdir({ path: pod });
      expect(await filesystem.pathExists({ path: pod })).toEqual({ exists: false });
      await filesystem.rmdir({ path: join(c.host.scratchRoot, "pods"), force: true });
      await filesystem.rmdir({ path: join(c.host.scratchRoot, "pods"), force: true });
      expect(await volumeFiles(c.volumeA)).toEqual(files);
    });

    it("refuses an occupied or non-empty mount path with CONFLICT, and a missing volume with NOT_FOUND", async () => {
      const c = ctx();
      const { volume, filesystem } = c.groups;
      volumeB = await prepareVolume(c.host.blankDisks[1]!, "csiconf-b");
      await expectCode(
        volume.mountVolume({ volumeId: volumeB, targetPath: c.staging }),
        "CONFLICT",
      );
      const full = join(c.host.scratchRoot, "not-empty");
      await filesystem.mkdir({ path: join(full, "something") });
      await expectCode(volume.mountVolume({ volumeId: volumeB, targetPath: full }), "CONFLICT");
      await expectCode(volume.isVolumeFormatted({ volumeId: missingVolume }), "NOT_FOUND");
      await expectCode(volume.getVolumeStats({ volumeId: missingVolume }), "NOT_FOUND");
      await expectCode(
        volume.mountVolume({ volumeId: missingVolume, targetPath: full }),
        "NOT_FOUND",
      );
    });

    it("mounts a second volume at an empty folder that lives on the folder-mounted volume", async () => {
      const c = ctx();
      const { volume, filesystem } = c.groups;
      const nested = join(c.staging, "nested");
      await filesystem.mkdir({ path: nested });
      expect(await volume.mountVolume({ volumeId: volumeB, targetPath: nested })).toEqual({
        alreadyMounted: false,
      });
      expect(await volume.getVolumeIdFromTargetPath({ targetPath: nested })).toEqual({
        volumeId: volumeB,
      });
      expect(await volume.unmountVolume({ volumeId: volumeB, targetPath: nested })).toEqual({
        wasMounted: true,
      });
      expect(await volume.unmountVolume({ volumeId: volumeB, targetPath: nested })).toEqual({
        wasMounted: false,
      });
      await filesystem.rmdir({ path: nested });
    });

    for (const how of ["rmdir with force", "rmdirContents"] as const) {
      it(`keeps every file of a volume mounted below a folder removed by ${how}`, async () => {
        const c = ctx();
        const { volume, filesystem } = c.groups;
        const parent = join(c.host.scratchRoot, how === "rmdirContents" ? "contents" : "forced");
        const target = join(parent, "pv-b", "globalmount");
        await filesystem.mkdir({ path: target });
        await volume.mountVolume({ volumeId: volumeB, targetPath: target });
        await writeFiles(target);
        // The documented contract: refused before anything is deleted; unmount first.
        const outcome = await (
          how === "rmdirContents"
            ? filesystem.rmdirContents({ path: parent })
            : filesystem.rmdir({ path: parent, force: true })
        ).then(
          () => "done",
          (error: unknown) => (error as { code?: string }).code ?? String(error),
        );
        expect(outcome).toBe("FAILED_PRECONDITION");
        expect(await volumeFiles(volumeB)).toEqual(files);
        // Leave no mount behind for the next case, whatever the outcome was.
        await volume
          .unmountVolume({ volumeId: volumeB, targetPath: target })
          .catch(() => undefined);
        await filesystem.rmdir({ path: parent, force: true });
      });
    }

    it("grows the volume to the new disk size after the disk grew (bigint size accepted)", async () => {
      const c = ctx();
      const { disk, volume } = c.groups;
      const grown = c.host.blankDiskBytes * 2;
      c.diskA = await c.host.growDisk(c.diskA, grown);
      await disk.rescan();
      expect(await disk.getDiskStats({ diskNumber: c.diskA })).toEqual({ totalBytes: grown });
      const before = Number((await volume.getVolumeStats({ volumeId: c.volumeA })).totalBytes);
      // The disk's size, not the largest partition size: the library clamps to what fits.
      expect(await volume.resizeVolume({ volumeId: c.volumeA, sizeBytes: BigInt(grown) })).toEqual({
        resized: true,
      });
      const after = Number((await volume.getVolumeStats({ volumeId: c.volumeA })).totalBytes);
      expect(after).toBeGreaterThan(before + c.host.blankDiskBytes * 0.9);
      expect(await volume.resizeVolume({ volumeId: c.volumeA, sizeBytes: 0 })).toEqual({
        resized: false,
      });
      expect(await volumeFiles(c.volumeA)).toEqual(files);
    });

    it("unmounts twice (the repeat is a no-op) and takes the disks offline", async () => {
      const c = ctx();
      const { volume, disk, filesystem } = c.groups;
      expect(await volume.unmountVolume({ volumeId: c.volumeA, targetPath: c.staging })).toEqual({
        wasMounted: true,
      });
      expect(await volume.unmountVolume({ volumeId: c.volumeA, targetPath: c.staging })).toEqual({
        wasMounted: false,
      });
      await filesystem.rmdir({ path: c.staging });
      for (const diskNumber of [c.diskA, c.host.blankDisks[1]!]) {
        await disk.setDiskState({ diskNumber, isOnline: false });
        expect(await disk.getDiskState({ diskNumber })).toEqual({ isOnline: false });
      }
    });
  });
}
