import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createPowerShell, type PowerShell } from "@csi-proxy/exec";
import { Filesystem } from "@csi-proxy/filesystem";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { Volume } from "@csi-proxy/volume";
import { Simulator, windowsFilesystemHost } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";

const gib = 1024 ** 3;

// azuredisk's host-process Unmount is Rmdir(staging, force) = os.RemoveAll, whose
// RemoveDirectoryW removes the mount folder and leaves the volume alone (issue #20 B1). On the
// simulator, with Node's Windows view of its folders, the staging mount point lstat()s as a
// directory, exactly the shape the library used to refuse.
describeWithPwsh("NodeUnstage by rmdir of the staging mount point", (pwsh) => {
  let sim: Simulator;
  let shell: PowerShell;
  let volume: Volume;
  let fs: Filesystem;
  let volumeId: string;
  let kubelet: string;

  beforeAll(async () => {
    sim = await Simulator.create({
      disks: [
        { number: 1, size: gib, partitionStyle: "GPT", partitions: [{ fileSystem: "NTFS" }] },
      ],
    });
    shell = createPowerShell(sim.shellOptions({ executable: pwsh }));
    volume = new Volume({ shell, pathStyle: "posix" });
    kubelet = join(sim.root, "var", "lib", "kubelet");
    fs = new Filesystem({
      host: windowsFilesystemHost(sim),
      pathStyle: "posix",
      allowedRoots: [kubelet],
    });
    const guid = sim.state().partitions.find((p) => p.diskNumber === 1 && p.volume)?.volume;
    volumeId = `\\\\?\\Volume{${guid ?? ""}}\\`;
  });

  afterAll(async () => {
    await shell.close();
    await sim.dispose();
  });

  it("removes the mount folder, keeps the data, and the volume mounts again elsewhere", async () => {
    const staging = join(kubelet, "plugins", "kubernetes.io", "csi", "pv", "vol1", "globalmount");
    await fs.mkdir({ path: staging });
    await volume.mountVolume({ volumeId, targetPath: staging });
    writeFileSync(join(staging, "data.txt"), "kept");
    expect((await windowsFilesystemHost(sim).lstat(staging)).isDirectory()).toBe(true);

    await fs.rmdir({ path: staging, force: true });
    expect(existsSync(staging)).toBe(false);
    // Retrying the unstage converges.
    await fs.rmdir({ path: staging, force: true });

    const again = join(kubelet, "plugins", "kubernetes.io", "csi", "pv", "vol1", "globalmount2");
    await fs.mkdir({ path: again });
    await volume.mountVolume({ volumeId, targetPath: again });
    expect(readFileSync(join(again, "data.txt"), "utf8")).toBe("kept");
    expect(await volume.getVolumeIdFromTargetPath({ targetPath: again })).toEqual({ volumeId });
  });

  it("still refuses a parent holding a mount point, removing nothing", async () => {
    const pv = join(kubelet, "plugins", "kubernetes.io", "csi", "pv", "vol1");
    await expect(fs.rmdir({ path: pv, force: true })).rejects.toMatchObject({
      code: "FAILED_PRECONDITION",
    });
    expect(readFileSync(join(pv, "globalmount2", "data.txt"), "utf8")).toBe("kept");
  });
});
