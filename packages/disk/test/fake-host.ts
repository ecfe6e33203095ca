import { PowerShellError } from "@csi-proxy/exec";
import { DiskNotFoundError } from "../src/errors.js";
import type { DiskHost, HostDisk, HostDiskId, HostDiskLocation } from "../src/host.js";

/** A disk in the fake host's model. */
export interface FakeDisk {
  number: number;
  partitionStyle: number;
  isOffline: boolean;
  isReadOnly: boolean;
  size: number | bigint;
  /** Partition types on the disk: "reserved" is the MSR, anything else is data. */
  partitions: string[];
  /** Read-only is applied when the disk is brought online (SAN policy). */
  readOnlyWhenOnlined?: boolean;
  /** Clearing read-only reports success but the attribute stays (the storage side restores it). */
  keepsReadOnly?: boolean;
}

/** One recorded host call. */
export interface FakeCall {
  method: keyof DiskHost;
  args: unknown[];
}

/** A PowerShellError shaped like the real one for an error id such as `StorageWMI 42002,New-Partition`. */
export function powerShellError(errorId: string, message = "failed"): PowerShellError {
  return new PowerShellError(message, {
    code: "COMMAND_FAILED",
    scriptName: "fake",
    mode: "session",
    durationMs: 1,
    record: {
      message,
      fullyQualifiedErrorId: errorId,
      category: "NotSpecified",
      reason: "CimException",
      targetName: "",
      targetType: "",
      exceptionType: "Microsoft.Management.Infrastructure.CimException",
      exceptionChain: [],
      hResult: 0,
      nativeErrorCode: null,
      statusCode: null,
      messageId: null,
      errorDetails: null,
      scriptStackTrace: "",
    },
  });
}

/**
 * An in-memory DiskHost that records every call and behaves like the Storage cmdlets for the
 * operations Disk uses. `failures` makes the next call of a method reject (once per entry).
 */
export class FakeDiskHost implements DiskHost {
  readonly calls: FakeCall[] = [];
  readonly disks = new Map<number, FakeDisk>();
  locations: HostDiskLocation[] = [];
  ids: HostDiskId[] = [];
  readonly failures = new Map<keyof DiskHost, unknown[]>();
  /** Called inside every method after recording it (e.g. to wait, to test locking). */
  hook: ((method: keyof DiskHost) => Promise<void>) | undefined;

  constructor(disks: FakeDisk[] = []) {
    for (const disk of disks) this.disks.set(disk.number, disk);
  }

  fail(method: keyof DiskHost, error: unknown): void {
    this.failures.set(method, [...(this.failures.get(method) ?? []), error]);
  }

  methods(): (keyof DiskHost)[] {
    return this.calls.map((c) => c.method);
  }

  private async enter(method: keyof DiskHost, args: unknown[]): Promise<void> {
    this.calls.push({ method, args });
    await this.hook?.(method);
    const queued = this.failures.get(method);
    if (queued !== undefined && queued.length > 0) throw queued.shift();
  }

  private disk(number: number): FakeDisk {
    const disk = this.disks.get(number);
    if (disk === undefined) throw new DiskNotFoundError(number);
    return disk;
  }

  async listDiskLocations(): Promise<readonly HostDiskLocation[]> {
    await this.enter("listDiskLocations", []);
    return this.locations;
  }

  async rescan(): Promise<void> {
    await this.enter("rescan", []);
  }

  async getDisk(diskNumber: number): Promise<HostDisk> {
    await this.enter("getDisk", [diskNumber]);
    const { number, partitionStyle, isOffline, isReadOnly, size } = this.disk(diskNumber);
    return { number, partitionStyle, isOffline, isReadOnly, size };
  }

  async initializeDisk(diskNumber: number): Promise<void> {
    await this.enter("initializeDisk", [diskNumber]);
    const disk = this.disk(diskNumber);
    if (disk.partitionStyle !== 0) throw powerShellError("StorageWMI 41001,Initialize-Disk");
    disk.partitionStyle = 2;
    disk.partitions.push("reserved");
  }

  async countDataPartitions(diskNumber: number): Promise<number> {
    await this.enter("countDataPartitions", [diskNumber]);
    return this.disk(diskNumber).partitions.filter((p) => p !== "reserved").length;
  }

  async createPartition(diskNumber: number): Promise<void> {
    await this.enter("createPartition", [diskNumber]);
    const disk = this.disk(diskNumber);
    if (disk.partitionStyle === 0) throw powerShellError("StorageWMI 41000,New-Partition");
    disk.partitions.push("basic");
  }

  async setOffline(diskNumber: number, isOffline: boolean): Promise<void> {
    await this.enter("setOffline", [diskNumber, isOffline]);
    const disk = this.disk(diskNumber);
    if (disk.isOffline && !isOffline && disk.readOnlyWhenOnlined === true) disk.isReadOnly = true;
    disk.isOffline = isOffline;
  }

  async setReadOnly(diskNumber: number, isReadOnly: boolean): Promise<void> {
    await this.enter("setReadOnly", [diskNumber, isReadOnly]);
    const disk = this.disk(diskNumber);
    if (!(disk.keepsReadOnly === true && !isReadOnly)) disk.isReadOnly = isReadOnly;
  }

  async listDiskIds(): Promise<readonly HostDiskId[]> {
    await this.enter("listDiskIds", []);
    return this.ids;
  }
}
