import { status } from "@grpc/grpc-js";
import { CsiProxyError, type CsiProxyErrorCode } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { grpcStatusOf } from "../src/status.js";
import { detailsOf } from "../src/upstream-text.js";

const error = (code: CsiProxyErrorCode, message = "m") => new CsiProxyError(message, { code });

describe("grpcStatusOf", () => {
  it.each([
    ["INVALID_ARGUMENT", 3],
    ["NOT_FOUND", 5],
    ["ALREADY_EXISTS", 6],
    ["PERMISSION_DENIED", 7],
    ["FAILED_PRECONDITION", 9],
    ["TIMEOUT", 4],
    ["ABORTED", 1],
    ["COMMAND_FAILED", 2],
    ["CONFLICT", 10],
    ["PARSE_FAILED", 2],
    ["UNSUPPORTED", 12],
    ["PROCESS_EXITED", 14],
  ] as const)("%s → %i", (code, expected) => {
    expect(grpcStatusOf(error(code))).toBe(expected);
  });

  it("an error that is not the library's is INTERNAL", () => {
    expect(grpcStatusOf(new TypeError("bug"))).toBe(status.INTERNAL);
  });
});

describe("detailsOf", () => {
  it("adds upstream's text that clients match on, once", () => {
    expect(detailsOf("iscsi", "DisconnectTarget", error("NOT_FOUND", "gone"))).toBe(
      "gone (ObjectNotFound)",
    );
    expect(detailsOf("iscsi", "DisconnectTarget", error("NOT_FOUND", "ObjectNotFound here"))).toBe(
      "ObjectNotFound here",
    );
    expect(detailsOf("iscsi", "DisconnectTarget", error("TIMEOUT", "slow"))).toBe("slow");
    expect(detailsOf("disk", "Rescan", error("NOT_FOUND", "x"))).toBe("x");
  });

  it("GetVolumeIDFromTargetPath: a plain folder says what aws-ebs-csi-driver reads as nothing mounted", () => {
    // handleGetDeviceNameFromMountError (aws-ebs-csi-driver pkg/mounter/mount_windows.go).
    const nothingMounted =
      /(Get-Item -Path \S+).Target, output: , error: <nil>|because it does not exist/;
    const plain = error(
      "NOT_FOUND",
      "C:\\s is not a mounted folder (C:\\s is no link or mount point).",
    );
    for (const rpc of ["GetVolumeIDFromTargetPath", "GetVolumeIDFromMount"]) {
      expect(detailsOf("volume", rpc, plain)).toMatch(nothingMounted);
    }
    // A missing path carries PowerShell's own text, as upstream's did: nothing is added.
    const missing = error(
      "NOT_FOUND",
      "Path C:\\s was not found: Cannot find path 'C:\\s' because it does not exist.",
    );
    expect(detailsOf("volume", "GetVolumeIDFromTargetPath", missing)).toBe(missing.message);
    // Other failures are not "nothing mounted".
    expect(detailsOf("volume", "GetVolumeIDFromTargetPath", error("TIMEOUT", "slow"))).toBe("slow");
    expect(detailsOf("volume", "GetVolumeIDFromTargetPath", error("NOT_FOUND", "x"))).toBe("x");
  });
});
