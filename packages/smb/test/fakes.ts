import { PowerShellError } from "@csi-proxy/exec";
import type {
  EnsureMappingRequest,
  LocalEntry,
  MappingOutcome,
  SmbHost,
  SmbLinkHost,
  SmbMappingInfo,
} from "../src/index.js";
import { toMappingStatus } from "../src/index.js";

/** A PowerShellError as exec builds it for a failed cmdlet, with the given error id. */
export function psError(
  fullyQualifiedErrorId: string,
  message = "The operation failed.",
): PowerShellError {
  return new PowerShellError(`smb.ensureMapping failed: ${message}`, {
    code: "COMMAND_FAILED",
    scriptName: "smb.ensureMapping",
    mode: "session",
    durationMs: 1,
    record: {
      message,
      fullyQualifiedErrorId,
      category: "NotSpecified",
      reason: "CimException",
      targetName: "MSFT_SmbGlobalMapping",
      targetType: "",
      exceptionType: "Microsoft.Management.Infrastructure.CimException",
      exceptionChain: ["Microsoft.Management.Infrastructure.CimException"],
      hResult: -2146233088,
      nativeErrorCode: null,
      statusCode: null,
      messageId: null,
      errorDetails: null,
      scriptStackTrace: "",
    },
  });
}

interface FakeMapping {
  remotePath: string;
  status: string;
  pathValid: boolean;
}

type Method = "ensureMapping" | "removeMapping" | "listMappings";

/**
 * An in-memory SmbHost that behaves as the PowerShell host does on Windows: case-insensitive
 * share roots; `ensureMapping` reuses an OK mapping whose path opens, else removes it before
 * creating it anew.
 */
export class FakeSmbHost implements SmbHost {
  readonly mappings = new Map<string, FakeMapping>();
  /** Every host call in order, and what `ensureMapping` did, e.g. `create \\srv\share`. */
  readonly events: string[] = [];
  readonly ensureRequests: EnsureMappingRequest[] = [];
  /** Errors the next call of a method throws (once). */
  readonly failures = new Map<Method, Error>();
  /** Awaited inside every call, so tests can hold calls open. */
  gate: (method: Method, shareRoot: string) => Promise<void> = () => Promise.resolve();

  constructor(initial: Record<string, { status?: string; pathValid?: boolean }> = {}) {
    for (const [remotePath, m] of Object.entries(initial))
      this.mappings.set(remotePath.toLowerCase(), {
        remotePath,
        status: m.status ?? "OK",
        pathValid: m.pathValid ?? true,
      });
  }

  private async enter(method: Method, shareRoot: string): Promise<void> {
    await this.gate(method, shareRoot);
    const failure = this.failures.get(method);
    if (failure !== undefined) {
      this.failures.delete(method);
      throw failure;
    }
  }

  async ensureMapping(request: EnsureMappingRequest): Promise<MappingOutcome> {
    this.ensureRequests.push(request);
    this.events.push(`ensure ${request.shareRoot}`);
    await this.enter("ensureMapping", request.shareRoot);
    const key = request.shareRoot.toLowerCase();
    const found = this.mappings.get(key);
    if (found !== undefined && toMappingStatus(found.status).status === "OK" && found.pathValid)
      return "reused";
    if (found !== undefined) {
      this.events.push(`remove ${request.shareRoot}`);
      this.mappings.delete(key);
    }
    this.events.push(`create ${request.shareRoot}`);
    this.mappings.set(key, { remotePath: request.shareRoot, status: "OK", pathValid: true });
    return found === undefined ? "created" : "recreated";
  }

  async removeMapping(shareRoot: string): Promise<boolean> {
    this.events.push(`remove ${shareRoot}`);
    await this.enter("removeMapping", shareRoot);
    return this.mappings.delete(shareRoot.toLowerCase());
  }

  async listMappings(): Promise<SmbMappingInfo[]> {
    this.events.push("list");
    await this.enter("listMappings", "");
    return [...this.mappings.values()].map((m) => ({
      remotePath: m.remotePath,
      ...toMappingStatus(m.status),
    }));
  }
}

/** An in-memory SmbLinkHost with case-insensitive Windows paths. */
export class MemoryLinkHost implements SmbLinkHost {
  readonly entries = new Map<string, LocalEntry>();
  readonly calls: string[] = [];
  failure: Error | undefined = undefined;

  constructor(layout: Record<string, LocalEntry> = {}) {
    for (const [path, entry] of Object.entries(layout)) this.entries.set(path.toLowerCase(), entry);
  }

  private check(): void {
    if (this.failure !== undefined) throw this.failure;
  }

  readLink(path: string): Promise<LocalEntry> {
    this.calls.push(`read ${path}`);
    return Promise.resolve(this.entries.get(path.toLowerCase()) ?? { kind: "missing" });
  }

  removeEmptyDirectory(path: string): Promise<void> {
    this.calls.push(`rmdir ${path}`);
    this.check();
    this.entries.delete(path.toLowerCase());
    return Promise.resolve();
  }

  createLink(path: string, target: string): Promise<void> {
    this.calls.push(`link ${path} -> ${target}`);
    this.check();
    this.entries.set(path.toLowerCase(), { kind: "link", target });
    return Promise.resolve();
  }
}
