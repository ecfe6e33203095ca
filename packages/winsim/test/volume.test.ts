import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { failure, useHost } from "./host.js";

const GiB = 1024 * 1024 * 1024;

const prepare = ps("winsim.test.prepare")`
  param([uint32]$Number)
  Get-Disk -Number $Number | Initialize-Disk -PartitionStyle GPT
  $p = Get-Disk -Number $Number | New-Partition -UseMaximumSize
  $v = $p | Get-Volume
  $f = Get-Volume -UniqueId $v.UniqueId | Format-Volume -FileSystem NTFS -NewFileSystemLabel data -Confirm:$false
  [pscustomobject]@{
    PartitionNumber = $p.PartitionNumber; Offset = $p.Offset; Size = $p.Size; DriveLetter = $p.DriveLetter
    RawFileSystemType = $v.FileSystemType; UniqueId = $f.UniqueId; FileSystem = $f.FileSystem
    FileSystemType = $f.FileSystemType; RawType = $f.psBase.CimInstanceProperties['FileSystemType'].Value; Label = $f.FileSystemLabel
  }
`;

const mount = ps("winsim.test.mount")`
  param([string]$VolumeId, [string]$Path)
  Get-Volume -UniqueId $VolumeId | Get-Partition | Add-PartitionAccessPath -AccessPath $Path
`;

const unmount = ps("winsim.test.unmount")`
  param([string]$VolumeId, [string]$Path)
  Get-Volume -UniqueId $VolumeId | Write-VolumeCache
  Get-Volume -UniqueId $VolumeId | Get-Partition | Remove-PartitionAccessPath -AccessPath $Path
`;

const volumeStats = ps("winsim.test.volumeStats")`
  param([string]$VolumeId)
  Get-Volume -UniqueId $VolumeId | Select-Object Size, SizeRemaining, DriveLetter
`;

const partitionOf = ps("winsim.test.partitionOf")`
  param([string]$VolumeId)
  Get-Volume -UniqueId $VolumeId | Get-Partition | Select-Object DiskNumber, PartitionNumber, AccessPaths, Size
`;

const volumeOfPath = ps("winsim.test.volumeOfPath")`
  param([string]$Path)
  (Get-Volume -FilePath $Path).UniqueId
`;

const volumesOfDisk = ps("winsim.test.volumesOfDisk")`
  param([uint32]$Number)
  ,@(Get-Partition -DiskNumber $Number | Get-Volume | ForEach-Object { $_.UniqueId })
`;

const supported = ps("winsim.test.supported")`
  param([string]$VolumeId)
  Get-Volume -UniqueId $VolumeId | Get-Partition | Get-PartitionSupportedSize | Select-Object SizeMin, SizeMax
`;

const resize = ps("winsim.test.resize")`
  param([string]$VolumeId, [uint64]$Size)
  Get-Volume -UniqueId $VolumeId | Get-Partition | Resize-Partition -Size $Size
  (Get-Volume -UniqueId $VolumeId).Size
`;

const newPartition = ps("winsim.test.newPartition")`
  param([uint32]$Number, [uint64]$Size)
  if ($Size) { New-Partition -DiskNumber $Number -Size $Size -AssignDriveLetter | Select-Object PartitionNumber, Offset, Size, DriveLetter }
  else { Get-Disk -Number $Number | New-Partition -UseMaximumSize | Select-Object PartitionNumber, Offset, Size }
`;

const formatLetter = ps("winsim.test.formatLetter")`
  param([string]$Letter)
  Format-Volume -DriveLetter $Letter -FileSystem NTFS -Confirm:$false
`;

const missingVolume = ps("winsim.test.missingVolume")`
  param([string]$VolumeId)
  Get-Volume -UniqueId $VolumeId
`;

describeWithPwsh("partitions and volumes", (pwsh) => {
  const host = useHost(pwsh, {
    disks: [
      { number: 1, size: 10 * GiB, lun: 1 },
      { number: 2, size: 4 * GiB, lun: 2 },
      { number: 3, size: 2 * GiB, lun: 3 },
    ],
  });
  let volumeId = "";

  it("creates, formats and reports a data partition through the pipeline forms", async () => {
    const made = await host.shell.run<Record<string, unknown>>(prepare, { Number: 1 });
    expect(made).toMatchObject({
      PartitionNumber: 2,
      Offset: 16777216,
      Size: 10719592448,
      DriveLetter: "\u0000",
      RawFileSystemType: "Unknown",
      FileSystem: "NTFS",
      FileSystemType: "NTFS",
      RawType: 14,
      Label: "data",
    });
    volumeId = made.UniqueId as string;
    expect(volumeId).toMatch(/^\\\\\?\\Volume\{[0-9a-f-]{36}\}\\$/);
    expect(await host.shell.run(volumesOfDisk, { Number: 1 })).toEqual([volumeId]);
  });

  it("mounts onto an empty folder as a link, so written bytes land in the volume", async () => {
    const folder = join(host.sim.root, "pods", "vol");
    mkdirSync(folder, { recursive: true });
    await host.shell.run(mount, { VolumeId: volumeId, Path: folder });
    expect(lstatSync(folder).isSymbolicLink()).toBe(true);
    const before = await host.shell.run<{ SizeRemaining: number; Size: number }>(volumeStats, {
      VolumeId: volumeId,
    });
    writeFileSync(join(folder, "data.bin"), Buffer.alloc(3 * 1024 * 1024));
    const after = await host.shell.run<{ SizeRemaining: number }>(volumeStats, {
      VolumeId: volumeId,
    });
    expect(before.SizeRemaining - after.SizeRemaining).toBe(3 * 1024 * 1024);
    const guid = /\{(.+)\}/.exec(volumeId)![1]!;
    expect(readdirSync(host.sim.volumeDir(guid))).toEqual(["data.bin"]);
    const part = await host.shell.run<{ AccessPaths: string[] }>(partitionOf, {
      VolumeId: volumeId,
    });
    expect(part.AccessPaths).toEqual([`${folder}/`, volumeId]);
    expect(await host.shell.run(volumeOfPath, { Path: join(folder, "data.bin") })).toBe(volumeId);
    expect(await host.shell.run(volumeOfPath, { Path: "/usr/bin" })).toMatch(/^\\\\\?\\Volume\{/);
  });

  it("refuses an access path that is in use or not an empty folder", async () => {
    const folder = join(host.sim.root, "pods", "vol");
    const inUse = await failure(host.shell.run(mount, { VolumeId: volumeId, Path: folder }));
    expect(inUse.record).toMatchObject({
      message: "The requested access path is already in use.",
      fullyQualifiedErrorId: "StorageWMI 42002,Add-PartitionAccessPath",
      targetType: "ROOT/Microsoft/Windows/Storage/MSFT_Partition",
      statusCode: 1,
      messageId: "StorageWMI 42002",
    });
    const missing = await failure(
      host.shell.run(mount, { VolumeId: volumeId, Path: join(host.sim.root, "nope") }),
    );
    expect(missing.record?.fullyQualifiedErrorId).toBe("StorageWMI 42007,Add-PartitionAccessPath");
  });

  it("unmounts back to an empty folder and keeps the data in the volume", async () => {
    const folder = join(host.sim.root, "pods", "vol");
    await host.shell.run(unmount, { VolumeId: volumeId, Path: folder });
    expect(lstatSync(folder).isDirectory()).toBe(true);
    expect(readdirSync(folder)).toEqual([]);
    const part = await host.shell.run<{ AccessPaths: string[] }>(partitionOf, {
      VolumeId: volumeId,
    });
    expect(part.AccessPaths).toEqual([volumeId]);
    const calls = host.sim.calls().filter((c) => c.command === "Remove-PartitionAccessPath");
    expect(calls.at(-1)).toMatchObject({
      parameters: { AccessPath: folder },
      target: { DiskNumber: 1, PartitionNumber: 2 },
    });
  });

  it("grows with Get-PartitionSupportedSize and Resize-Partition, with Windows' size errors", async () => {
    host.sim.update((s) => {
      s.disks.find((d) => d.number === 1)!.size = 12 * GiB;
    });
    const sizes = await host.shell.run<{ SizeMin: number; SizeMax: number }>(supported, {
      VolumeId: volumeId,
    });
    expect(sizes.SizeMax).toBe(12 * GiB - 16777216 - 1048576);
    expect(sizes.SizeMin).toBeLessThan(sizes.SizeMax);
    expect(await host.shell.run(resize, { VolumeId: volumeId, Size: sizes.SizeMax })).toBe(
      sizes.SizeMax,
    );
    const same = await failure(host.shell.run(resize, { VolumeId: volumeId, Size: sizes.SizeMax }));
    expect(same.record?.fullyQualifiedErrorId).toBe("StorageWMI 4097,Resize-Partition");
    expect(same.record?.message).toMatch(
      /^Size Not Supported\n\nExtended information:\nThe partition is already the requested size\./,
    );
    const tiny = await failure(
      host.shell.run(resize, { VolumeId: volumeId, Size: sizes.SizeMax - 4096 }),
    );
    expect(tiny.record?.message).toContain(
      "The size of the extent is less than the minimum of 1MB.",
    );
    const huge = await failure(
      host.shell.run(resize, { VolumeId: volumeId, Size: sizes.SizeMax + 1024 * 1048576 }),
    );
    expect(huge.record?.message).toMatch(/^Size Not Supported/);
  });

  it("reports a failing supported-size query injected as a fault", async () => {
    host.sim.fault({
      command: "Get-PartitionSupportedSize",
      match: { DiskNumber: 1 },
      action: "error",
      error: {
        message: "Failed",
        errorId: "StorageWMI 4",
        nativeErrorCode: "Failed",
        statusCode: 4,
      },
    });
    const error = await failure(host.shell.run(supported, { VolumeId: volumeId }));
    expect(error.record).toMatchObject({
      fullyQualifiedErrorId: "StorageWMI 4,Get-PartitionSupportedSize",
      nativeErrorCode: "Failed",
      statusCode: 4,
    });
    expect(await host.shell.run(supported, { VolumeId: volumeId })).toHaveProperty("SizeMax");
  });

  it("refuses New-Partition on a RAW disk and when the disk is full", async () => {
    const raw = await failure(host.shell.run(newPartition, { Number: 3 }));
    expect(raw.record).toMatchObject({
      fullyQualifiedErrorId: "StorageWMI 41000,New-Partition",
      targetType: "ROOT/Microsoft/Windows/Storage/MSFT_Disk",
    });
    expect(raw.record?.message).toMatch(/^The disk has not been initialized\.\nActivity ID: \{/);
    const full = await failure(host.shell.run(newPartition, { Number: 1 }));
    expect(full.record).toMatchObject({
      message: "Not enough available capacity",
      fullyQualifiedErrorId: "StorageWMI 40000,New-Partition",
    });
  });

  it("creates sized partitions with drive letters on an initialised disk", async () => {
    await host.shell.run(prepare, { Number: 2 }).catch(() => undefined);
    host.sim.update((s) => {
      s.partitions = s.partitions.filter((p) => !(p.diskNumber === 2 && p.partitionNumber === 2));
    });
    const made = await host.shell.run(newPartition, { Number: 2, Size: 1024 * 1048576 });
    expect(made).toEqual({
      PartitionNumber: 2,
      Offset: 16777216,
      Size: 1024 * 1048576,
      DriveLetter: "D",
    });
  });

  it("reports a missing drive letter on Format-Volume per letter, typed Char", async () => {
    const error = await failure(host.shell.run(formatLetter, { Letter: "Z" }));
    expect(error.record).toMatchObject({
      message:
        "No MSFT_Volume objects found with property 'DriveLetter' equal to 'Z'.  Verify the value of the property and retry.",
      fullyQualifiedErrorId: "CmdletizationQuery_NotFound_DriveLetter,Format-Volume",
      targetName: "Z",
      targetType: "Char",
    });
  });

  it("reports an unknown volume id as a CDXML query miss", async () => {
    const error = await failure(
      host.shell.run(missingVolume, {
        VolumeId: "\\\\?\\Volume{00000000-0000-0000-0000-000000000000}\\",
      }),
    );
    expect(error.record).toMatchObject({
      fullyQualifiedErrorId: "CmdletizationQuery_NotFound_UniqueId,Get-Volume",
      category: "ObjectNotFound",
      targetType: "String",
    });
    expect(existsSync(host.sim.dir)).toBe(true);
  });
});
