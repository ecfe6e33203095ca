import { PowerShellError, type PowerShellErrorRecord } from "@csi-proxy/exec";
import { vi } from "vitest";
import type { VolumeHost } from "../src/index.js";

/** A VolumeHost whose every method fails unless a test gives it an implementation. */
export function fakeHost(overrides: Partial<VolumeHost> = {}) {
  const unexpected = (name: string) => () =>
    Promise.reject(new Error(`unexpected host call ${name}`));
  const host = {
    listVolumeIds: vi.fn<VolumeHost["listVolumeIds"]>(unexpected("listVolumeIds")),
    getVolume: vi.fn<VolumeHost["getVolume"]>(unexpected("getVolume")),
    formatVolume: vi.fn<VolumeHost["formatVolume"]>(unexpected("formatVolume")),
    mountVolume: vi.fn<VolumeHost["mountVolume"]>(unexpected("mountVolume")),
    unmountVolume: vi.fn<VolumeHost["unmountVolume"]>(unexpected("unmountVolume")),
    resizeVolume: vi.fn<VolumeHost["resizeVolume"]>(unexpected("resizeVolume")),
    getDiskNumbers: vi.fn<VolumeHost["getDiskNumbers"]>(unexpected("getDiskNumbers")),
    listVolumeDisks: vi.fn<VolumeHost["listVolumeDisks"]>(unexpected("listVolumeDisks")),
    writeVolumeCache: vi.fn<VolumeHost["writeVolumeCache"]>(unexpected("writeVolumeCache")),
    resolveMountTarget: vi.fn<VolumeHost["resolveMountTarget"]>(unexpected("resolveMountTarget")),
    findClosestVolume: vi.fn<VolumeHost["findClosestVolume"]>(unexpected("findClosestVolume")),
    listMountPoints: vi.fn<VolumeHost["listMountPoints"]>(unexpected("listMountPoints")),
  };
  for (const [name, impl] of Object.entries(overrides)) {
    (host as unknown as Record<string, { mockImplementation: (f: unknown) => void }>)[
      name
    ]!.mockImplementation(impl);
  }
  return host;
}

/** A PowerShellError as the exec core builds it from an error record. */
export function psError(fullyQualifiedErrorId: string, category = "NotSpecified"): PowerShellError {
  const record: PowerShellErrorRecord = {
    message: `failure ${fullyQualifiedErrorId}`,
    fullyQualifiedErrorId,
    category,
    reason: "CimException",
    targetName: "",
    targetType: "",
    exceptionType: "Microsoft.Management.Infrastructure.CimException",
    exceptionChain: ["Microsoft.Management.Infrastructure.CimException"],
    hResult: -2146233088,
    nativeErrorCode: null,
    statusCode: null,
    messageId: null,
    errorDetails: null,
    scriptStackTrace: "",
  };
  return new PowerShellError(record.message, {
    code: "COMMAND_FAILED",
    scriptName: "volume.test",
    mode: "session",
    durationMs: 1,
    record,
  });
}

export const volumeA = "\\\\?\\Volume{452e318a-5cde-421e-9831-b9853c521012}\\";
export const volumeB = "\\\\?\\Volume{7c1da3c0-361d-4803-939c-6e375035ab96}\\";
export const mib = 1024n * 1024n;
