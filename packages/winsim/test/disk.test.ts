import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { scenarios } from "../src/index.js";
import { failure, useHost } from "./host.js";

const describeDisk = ps("winsim.test.describeDisk")`
  param([uint32]$Number)
  $d = Get-Disk -Number $Number
  $raw = $d.psBase.CimInstanceProperties
  [pscustomobject]@{
    Number = $d.Number; DiskNumber = $d.DiskNumber; NumberType = $d.Number.GetType().Name; SizeType = $d.Size.GetType().Name
    PartitionStyle = $d.PartitionStyle; RawPartitionStyle = $raw['PartitionStyle'].Value
    BusType = $d.BusType; RawBusType = $raw['BusType'].Value
    OperationalStatus = $d.OperationalStatus; RawOperationalStatus = @($raw['OperationalStatus'].Value)
    OfflineReason = $d.OfflineReason; IsOffline = $d.IsOffline; IsReadOnly = $d.IsReadOnly
    Location = $d.Location; SerialNumber = $d.SerialNumber; UniqueIdFormat = $d.UniqueIdFormat
    IsRawEqual = ($d.PartitionStyle -eq 'raw'); TypeNames = @($d.PSObject.TypeNames)
  }
`;

const getDiskJson = ps("winsim.test.getDiskJson")`
  Get-Disk | Sort-Object Number | Select-Object Number, DiskNumber, PartitionStyle, BusType, Location, SerialNumber, Signature, Guid, NumberOfPartitions
`;

const getDiskBy = ps("winsim.test.getDiskBy")`
  param([string]$UniqueId, [string]$Path, [string]$FriendlyName)
  $found = @()
  if ($UniqueId) { $found += @(Get-Disk -UniqueId $UniqueId) }
  if ($Path) { $found += @(Get-Disk -Path $Path) }
  if ($FriendlyName) { $found += @(Get-Disk -FriendlyName $FriendlyName) }
  ,@($found | ForEach-Object { $_.Number })
`;

const missingDisk = ps("winsim.test.missingDisk")`
  param([uint32]$Number)
  Get-Disk -Number $Number
`;

const partitionsOf = ps("winsim.test.partitionsOf")`
  param([uint32]$Number)
  ,@(Get-Partition -DiskNumber $Number | ForEach-Object { $_.PartitionNumber })
`;

const tolerantMiss = ps("winsim.test.tolerantMiss")`
  $found = @(Get-Disk -Number 0, 99 -ErrorAction SilentlyContinue -ErrorVariable missed | ForEach-Object { $_.Number })
  [pscustomobject]@{ Found = $found; Errors = $missed.Count; Id = $missed[0].FullyQualifiedErrorId }
`;

const initialize = ps("winsim.test.initialize")`
  param([uint32]$Number, [string]$Style)
  Get-Disk -Number $Number | Initialize-Disk -PartitionStyle $Style
  Get-Disk -Number $Number | Get-Partition | Select-Object PartitionNumber, Offset, Size, Type, AccessPaths
`;

const online = ps("winsim.test.online")`
  param([uint32]$Number)
  Set-Disk -Number $Number -IsOffline $false
  Set-Disk -Number $Number -IsReadOnly $false
  Update-HostStorageCache
  Get-Disk -Number $Number | Select-Object IsOffline, IsReadOnly, OfflineReason, OperationalStatus, Signature
`;

const setBoth = ps("winsim.test.setBoth")`
  Set-Disk -Number 5 -IsOffline $false -IsReadOnly $false
`;

const ioctl = ps("winsim.test.ioctl")`
  param([string]$Path)
  [pscustomobject]@{
    Descriptor = [Convert]::ToHexString([CsiProxy.StorageIoctl]::QueryDeviceIdDescriptor($Path)).ToLowerInvariant()
    Number = [CsiProxy.StorageIoctl]::QueryDeviceNumber($Path)
  }
`;

const ioctlError = ps("winsim.test.ioctlError")`
  param([string]$Path)
  try { [void][CsiProxy.StorageIoctl]::QueryDeviceIdDescriptor($Path); 'no error' }
  catch { $e = $_.Exception; while ($null -ne $e.InnerException) { $e = $e.InnerException }; $e.GetType().FullName + '|' + $e.Message + '|' + $e.NativeErrorCode }
`;

describeWithPwsh("disks", (pwsh) => {
  const host = useHost(pwsh, scenarios.demo());

  it("shows type-data strings while keeping raw CIM values and real type names", async () => {
    const disk = await host.shell.run<Record<string, unknown>>(describeDisk, { Number: 4 });
    expect(disk).toMatchObject({
      Number: 4,
      DiskNumber: 4,
      NumberType: "UInt32",
      SizeType: "UInt64",
      PartitionStyle: "RAW",
      RawPartitionStyle: 0,
      BusType: "SAS",
      RawBusType: 10,
      OperationalStatus: "Online",
      RawOperationalStatus: [53264],
      OfflineReason: null,
      Location: "PCI Slot 3 : Adapter 0 : Port 0 : Target 0 : LUN 3",
      UniqueIdFormat: "FCPH Name",
      IsRawEqual: true,
    });
    expect(disk.TypeNames).toEqual([
      "Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_Disk",
      "Microsoft.Management.Infrastructure.CimInstance#ROOT/Microsoft/Windows/Storage/MSFT_StorageObject",
      "Microsoft.Management.Infrastructure.CimInstance#MSFT_Disk",
      "Microsoft.Management.Infrastructure.CimInstance#MSFT_StorageObject",
      "Microsoft.Management.Infrastructure.CimInstance",
      "System.Object",
    ]);
    const offline = await host.shell.run<Record<string, unknown>>(describeDisk, { Number: 5 });
    expect(offline).toMatchObject({
      OperationalStatus: "Offline",
      RawOperationalStatus: [53267],
      OfflineReason: "Policy",
      IsOffline: true,
      IsReadOnly: true,
      BusType: "iSCSI",
      Location: null,
    });
    const collision = await host.shell.run<Record<string, unknown>>(describeDisk, { Number: 6 });
    expect(collision).toMatchObject({
      OfflineReason: "Collision",
      PartitionStyle: "MBR",
      IsOffline: true,
    });
  });

  it("lists every disk with its quirks (blank serial, null location, NVMe location)", async () => {
    const disks = await host.shell.run<Record<string, unknown>[]>(getDiskJson);
    expect(disks.map((d) => [d.Number, d.BusType, d.PartitionStyle])).toEqual([
      [0, "SAS", "GPT"],
      [1, "SAS", "GPT"],
      [2, "NVMe", "GPT"],
      [3, "File Backed Virtual", "MBR"],
      [4, "SAS", "RAW"],
      [5, "iSCSI", "RAW"],
      [6, "SAS", "MBR"],
    ]);
    expect(disks[1]?.SerialNumber).toBe("                    ");
    expect(disks[3]?.Location).toBeNull();
    expect(disks[2]?.Location).toMatch(/^Integrated : Bus 0/);
    expect(disks[0]).toMatchObject({ DiskNumber: 0, NumberOfPartitions: 3, Signature: null });
    expect(disks[6]?.Signature).toBe(disks[3]?.Signature);
  });

  it("finds disks by UniqueId, Path and wildcard FriendlyName", async () => {
    const state = host.sim.state();
    const disk2 = state.disks.find((d) => d.number === 2)!;
    expect(await host.shell.run(getDiskBy, { UniqueId: disk2.uniqueId })).toEqual([2]);
    expect(await host.shell.run(getDiskBy, { Path: disk2.path })).toEqual([2]);
    expect(await host.shell.run(getDiskBy, { FriendlyName: "NVMe*" })).toEqual([2]);
    expect(await host.shell.run(getDiskBy, { FriendlyName: "Nothing*" })).toEqual([]);
  });

  it("reports a missing disk like CDXML does", async () => {
    const error = await failure(host.shell.run(missingDisk, { Number: 99 }));
    expect(error.code).toBe("COMMAND_FAILED");
    expect(error.record).toMatchObject({
      message:
        "No MSFT_Disk objects found with property 'Number' equal to '99'.  Verify the value of the property and retry.",
      fullyQualifiedErrorId: "CmdletizationQuery_NotFound_Number,Get-Disk",
      category: "ObjectNotFound",
      reason: "CimJobException",
      targetName: "99",
      targetType: "UInt32",
      exceptionType: "Microsoft.PowerShell.Cmdletization.Cim.CimJobException",
    });
  });

  it("reports a disk without partitions as a Get-Partition query miss", async () => {
    const error = await failure(host.shell.run(partitionsOf, { Number: 5 }));
    expect(error.record).toMatchObject({
      message:
        "No MSFT_Partition objects found with property 'DiskNumber' equal to '5'.  Verify the value of the property and retry.",
      fullyQualifiedErrorId: "CmdletizationQuery_NotFound_DiskNumber,Get-Partition",
      targetType: "UInt32",
    });
    expect(await host.shell.run(partitionsOf, { Number: 3 })).toEqual([1]);
  });

  it("writes query misses as non-terminating errors, so -ErrorAction decides", async () => {
    expect(await host.shell.run(tolerantMiss)).toEqual({
      Found: [0],
      Errors: 1,
      Id: "CmdletizationQuery_NotFound_Number,Get-Disk",
    });
  });

  it("initialises a RAW disk through the pipeline with the GPT reserved partition, once", async () => {
    const parts = await host.shell.run(initialize, { Number: 4, Style: "GPT" });
    expect(parts).toEqual({
      PartitionNumber: 1,
      Offset: 17408,
      Size: 16759808,
      Type: "Reserved",
      AccessPaths: [null],
    });
    const error = await failure(host.shell.run(initialize, { Number: 4, Style: "GPT" }));
    expect(error.record).toMatchObject({
      message: "The disk has already been initialized.",
      fullyQualifiedErrorId: "StorageWMI 41001,Initialize-Disk",
      category: "NotSpecified",
      reason: "CimException",
      targetName: "StorageWMI",
      targetType: "ROOT/Microsoft/Windows/Storage/MSFT_Disk",
      nativeErrorCode: "Failed",
      statusCode: 1,
      messageId: "StorageWMI 41001",
    });
    expect(error.record?.exceptionChain).toContain("CsiProxy.WinSim.CimException");
  });

  it("brings disks online and writable, giving a colliding disk a new signature", async () => {
    expect(await host.shell.run(online, { Number: 5 })).toEqual({
      IsOffline: false,
      IsReadOnly: false,
      OfflineReason: null,
      OperationalStatus: "Online",
      Signature: null,
    });
    const before = host.sim.state().disks.find((d) => d.number === 6)!.signature;
    const after = await host.shell.run<{ Signature: number }>(online, { Number: 6 });
    expect(after.Signature).not.toBe(before);
    expect(host.sim.calls().filter((c) => c.command === "Update-HostStorageCache")).toHaveLength(2);
  });

  it("keeps -IsOffline and -IsReadOnly in separate parameter sets", async () => {
    const error = await failure(host.shell.run(setBoth));
    expect(error.record?.fullyQualifiedErrorId).toBe("AmbiguousParameterSet,Set-Disk");
  });

  it("answers the page 83 IOCTL with a real STORAGE_DEVICE_ID_DESCRIPTOR", async () => {
    const disk4 = host.sim.state().disks.find((d) => d.number === 4)!;
    const result = await host.shell.run<{ Descriptor: string; Number: number }>(ioctl, {
      Path: disk4.path,
    });
    const bytes = Buffer.from(result.Descriptor, "hex");
    expect(result.Number).toBe(4);
    expect(bytes.readUInt32LE(4)).toBe(bytes.length);
    expect(bytes.readUInt32LE(8)).toBe(1);
    expect([
      bytes.readUInt32LE(12),
      bytes.readUInt32LE(16),
      bytes.readUInt16LE(20),
      bytes.readUInt16LE(22),
    ]).toEqual([1, 3, 16, 32]);
    expect(bytes.subarray(28, 44).toString("hex")).toBe("60022480495f67cbc95fd232e88561a7");
  });

  it("fails the IOCTL like Windows for a broken device and an unknown path", async () => {
    const disk1 = host.sim.state().disks.find((d) => d.number === 1)!;
    host.sim.update((s) => {
      s.disks.find((d) => d.number === 1)!.deviceIdError = "Incorrect function.";
    });
    expect(await host.shell.run(ioctlError, { Path: disk1.path })).toBe(
      "System.ComponentModel.Win32Exception|Incorrect function.|1",
    );
    expect(await host.shell.run(ioctlError, { Path: "\\\\?\\scsi#nope" })).toBe(
      "System.ComponentModel.Win32Exception|The system cannot find the file specified.|2",
    );
  });
});
