import { isCsiProxyError, PowerShellError } from "@csi-proxy/exec";
import { DiskNotFoundError, hasStorageWmiCode } from "../src/errors.js";
import type {
  DiskHost,
  HostDisk,
  HostDiskId,
  HostDiskLocation,
  HostDiskState,
  HostPartitionOutcome,
} from "../src/host.js";

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

/**
 * One step inside a host call, named after the cmdlet the PowerShell host's script runs for it,
 * so tests can check what a call read and changed.
 */
export type FakeStep =
  | "Get-Disk"
  | "Initialize-Disk"
  | "Get-Partition"
  | "New-Partition"
  | "Set-Disk -IsOffline"
  | "Set-Disk -IsReadOnly";

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
 * operations Disk uses; its one-script methods (partitionDisk, setOnline, setOffline) follow the
 * PowerShell host's scripts step by step and record those steps. `failures` makes the next call
 * of a method reject, `stepFailures` the next run of a step (once per entry).
 */
export class FakeDiskHost implements DiskHost {
  readonly calls: FakeCall[] = [];
  readonly steps: FakeStep[] = [];
  readonly disks = new Map<number, FakeDisk>();
  locations: HostDiskLocation[] = [];
  ids: HostDiskId[] = [];
  readonly failures = new Map<keyof DiskHost, unknown[]>();
  readonly stepFailures = new Map<FakeStep, unknown[]>();
  /** Called inside every method after recording it (e.g. to wait, to test locking). */
  hook: ((method: keyof DiskHost) => Promise<void>) | undefined;
  /** Called before every step acts (e.g. to change the disk behind the host's back, or to wait). */
  stepHook: ((step: FakeStep) => Promise<void>) | undefined;

  constructor(disks: FakeDisk[] = []) {
    for (const disk of disks) this.disks.set(disk.number, disk);
  }

  fail(method: keyof DiskHost, error: unknown): void {
    this.failures.set(method, [...(this.failures.get(method) ?? []), error]);
  }

  failStep(step: FakeStep, error: unknown): void {
    this.stepFailures.set(step, [...(this.stepFailures.get(step) ?? []), error]);
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

  private async step(step: FakeStep): Promise<void> {
    this.steps.push(step);
    await this.stepHook?.(step);
    const queued = this.stepFailures.get(step);
    if (queued !== undefined && queued.length > 0) throw queued.shift();
  }

  private disk(number: number): FakeDisk {
    const disk = this.disks.get(number);
    if (disk === undefined) throw new DiskNotFoundError(number);
    return disk;
  }

  private async read(number: number): Promise<HostDisk> {
    await this.step("Get-Disk");
    const { partitionStyle, isOffline, isReadOnly, size } = this.disk(number);
    return { number, partitionStyle, isOffline, isReadOnly, size };
  }

  private async countData(number: number): Promise<number> {
    await this.step("Get-Partition");
    return this.disk(number).partitions.filter((p) => p !== "reserved").length;
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
    return this.read(diskNumber);
  }

  async partitionDisk(diskNumber: number): Promise<HostPartitionOutcome> {
    await this.enter("partitionDisk", [diskNumber]);
    const seen = await this.read(diskNumber);
    let initialized = false;
    if (seen.partitionStyle === 0) {
      try {
        await this.step("Initialize-Disk");
        const disk = this.disk(diskNumber);
        if (disk.partitionStyle !== 0) throw powerShellError("StorageWMI 41001,Initialize-Disk");
        disk.partitionStyle = 2;
        disk.partitions.push("reserved");
        initialized = true;
      } catch (error) {
        if (!hasStorageWmiCode(error, 41001)) throw error;
      }
    }
    if ((await this.countData(diskNumber)) > 0) return { initialized, created: false };
    try {
      await this.step("New-Partition");
      const disk = this.disk(diskNumber);
      if (disk.partitionStyle === 0) throw powerShellError("StorageWMI 41000,New-Partition");
      disk.partitions.push("basic");
    } catch (error) {
      if (!hasStorageWmiCode(error, 42002)) throw error;
      if ((await this.countData(diskNumber)) === 0) throw error;
    }
    return { initialized, created: true };
  }

  async setOnline(diskNumber: number, clearReadOnly: boolean): Promise<HostDiskState> {
    await this.enter("setOnline", [diskNumber, clearReadOnly]);
    let seen = await this.read(diskNumber);
    if (seen.isOffline) {
      await this.step("Set-Disk -IsOffline");
      const disk = this.disk(diskNumber);
      if (disk.readOnlyWhenOnlined === true) disk.isReadOnly = true;
      disk.isOffline = false;
      seen = await this.read(diskNumber);
    }
    let readOnlyRefusal: Error | null = null;
    if (clearReadOnly && seen.isReadOnly) {
      let cleared = false;
      try {
        await this.step("Set-Disk -IsReadOnly");
        const disk = this.disk(diskNumber);
        if (disk.keepsReadOnly !== true) disk.isReadOnly = false;
        cleared = true;
      } catch (error) {
        // As the script: a cmdlet's refusal is reported; a miss or a call that got no answer is not.
        const refused = isCsiProxyError(error) && error.code === "COMMAND_FAILED";
        if (!refused || !(error instanceof Error)) throw error;
        readOnlyRefusal = error;
      }
      // Only Set-Disk's own failure is a refusal: the check after it fails as itself.
      if (cleared) seen = await this.read(diskNumber);
    }
    return { isOffline: seen.isOffline, isReadOnly: seen.isReadOnly, readOnlyRefusal };
  }

  async setOffline(diskNumber: number): Promise<HostDiskState> {
    await this.enter("setOffline", [diskNumber]);
    const seen = await this.read(diskNumber);
    if (!seen.isOffline) {
      await this.step("Set-Disk -IsOffline");
      this.disk(diskNumber).isOffline = true;
    }
    return { isOffline: true, isReadOnly: seen.isReadOnly, readOnlyRefusal: null };
  }

  async listDiskIds(): Promise<readonly HostDiskId[]> {
    await this.enter("listDiskIds", []);
    return this.ids;
  }
}
