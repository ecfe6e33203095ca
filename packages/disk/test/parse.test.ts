import { isCsiProxyError } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import {
  parseDisk,
  parseDiskIds,
  parseDiskState,
  parseLocations,
  parsePartitionOutcome,
} from "../src/parse.js";

function code(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isCsiProxyError(error) ? error.code : "not a CsiProxyError";
  }
  return undefined;
}

describe("parseLocations", () => {
  it("keeps nulls and drops non-string locations and bad numbers to null", () => {
    expect(
      parseLocations([
        { number: 1, location: "a" },
        { number: null, location: null },
        { number: -1, location: 5 },
        { number: 1.5, location: "b" },
        { number: 2 ** 32, location: "c" },
      ]),
    ).toEqual([
      { number: 1, location: "a" },
      { number: null, location: null },
      { number: null, location: null },
      { number: null, location: "b" },
      { number: null, location: "c" },
    ]);
  });

  it.each([[undefined], [{ number: 1 }], ["text"], [[1]]])("rejects %j", (value) => {
    expect(code(() => parseLocations(value))).toBe("PARSE_FAILED");
  });
});

describe("parseDisk", () => {
  const good = { number: 3, partitionStyle: 2, isOffline: false, isReadOnly: true, size: 1024 };

  it("keeps sizes exact: number when safe, bigint beyond", () => {
    expect(parseDisk(good).size).toBe(1024);
    expect(parseDisk({ ...good, size: 2n ** 60n }).size).toBe(2n ** 60n);
  });

  it.each([
    ["no object", undefined],
    ["a missing style", { ...good, partitionStyle: null }],
    ["a string flag", { ...good, isOffline: "False" }],
    ["a fractional size", { ...good, size: 1.5 }],
    ["a negative size", { ...good, size: -1 }],
    ["an unsafe number size", { ...good, size: 2 ** 60 }],
    ["a missing number", { ...good, number: null }],
  ])("rejects %s", (_name, value) => {
    expect(code(() => parseDisk(value))).toBe("PARSE_FAILED");
  });
});

describe("parsePartitionOutcome", () => {
  it("accepts two booleans only", () => {
    expect(parsePartitionOutcome({ initialized: false, created: true })).toEqual({
      initialized: false,
      created: true,
    });
    expect(code(() => parsePartitionOutcome(undefined))).toBe("PARSE_FAILED");
    expect(code(() => parsePartitionOutcome({ initialized: 0, created: true }))).toBe(
      "PARSE_FAILED",
    );
  });
});

describe("parseDiskState", () => {
  it("reads the state, and a refusal's record with defaults for missing fields", () => {
    expect(parseDiskState({ isOffline: false, isReadOnly: true })).toEqual({
      isOffline: false,
      isReadOnly: true,
      readOnlyRefusal: null,
    });
    const state = parseDiskState({
      isOffline: false,
      isReadOnly: true,
      readOnlyRefusal: { message: "no", fullyQualifiedErrorId: "StorageWMI 41002,Set-Disk" },
    });
    expect(state.readOnlyRefusal).toMatchObject({
      message: "no",
      fullyQualifiedErrorId: "StorageWMI 41002,Set-Disk",
      exceptionChain: [],
      nativeErrorCode: null,
      statusCode: null,
      hResult: 0,
    });
  });

  it("refuses anything else with PARSE_FAILED", () => {
    for (const value of [
      undefined,
      { isOffline: "false", isReadOnly: true },
      { isOffline: false, isReadOnly: true, readOnlyRefusal: "no" },
      { isOffline: false, isReadOnly: true, readOnlyRefusal: { message: "no" } },
    ]) {
      expect(code(() => parseDiskState(value))).toBe("PARSE_FAILED");
    }
  });
});

describe("parseDiskIds", () => {
  it("reads identifiers and per-disk errors", () => {
    expect(
      parseDiskIds([
        { number: 1, path: "p1", serialNumber: " s ", page83: "abc", error: null },
        {
          number: 2,
          path: "p2",
          serialNumber: null,
          page83: null,
          error: { message: "Incorrect function.", win32Error: 1 },
        },
      ]),
    ).toEqual([
      {
        number: 1,
        path: "p1",
        serialNumber: " s ",
        isSystemDisk: false,
        page83: "abc",
        error: null,
      },
      {
        number: 2,
        path: "p2",
        serialNumber: null,
        isSystemDisk: false,
        page83: null,
        error: { message: "Incorrect function.", win32Error: 1 },
      },
    ]);
  });

  it("rejects an entry with neither identifier nor error rather than report a wrong empty id", () => {
    expect(code(() => parseDiskIds([{ number: 1, path: "p", page83: null, error: null }]))).toBe(
      "PARSE_FAILED",
    );
  });

  it("rejects a non-array answer", () => {
    expect(code(() => parseDiskIds({ number: 1 }))).toBe("PARSE_FAILED");
  });
});
