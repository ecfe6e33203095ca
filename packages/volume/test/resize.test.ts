import { describe, expect, it } from "vitest";
import { layoutSizeMax, resizeDecision } from "../src/resize.js";
import { mib } from "./fake-host.js";

const gib = 1024n * mib;

describe("layoutSizeMax: the maximum without Get-PartitionSupportedSize", () => {
  it("GPT, 512-byte sectors: ends 16896 bytes before the disk's end, cut to whole MiB", () => {
    const layout = { offset: mib, diskSize: 2n * gib, logicalSectorSize: 512, partitionStyle: 2 };
    expect(layoutSizeMax(layout)).toBe(2n * gib - 2n * mib);
    const unaligned = { ...layout, diskSize: 2n * gib + 16896n + 4096n };
    expect(layoutSizeMax(unaligned)).toBe(2n * gib - mib);
  });

  it("GPT, 4 KiB sectors: the backup GPT takes 20480 bytes", () => {
    const layout = {
      offset: mib,
      diskSize: 2n * gib + 20479n,
      logicalSectorSize: 4096,
      partitionStyle: 2,
    };
    expect(layoutSizeMax(layout)).toBe(2n * gib - 2n * mib);
    expect(layoutSizeMax({ ...layout, diskSize: 2n * gib + 20480n })).toBe(2n * gib - mib);
  });

  it("MBR runs to the disk's last whole MiB; a next partition stops it", () => {
    const layout = { offset: mib, diskSize: 2n * gib, logicalSectorSize: 512, partitionStyle: 1 };
    expect(layoutSizeMax(layout)).toBe(2n * gib - mib);
    expect(layoutSizeMax({ ...layout, nextOffset: gib })).toBe(gib - mib);
  });

  it("a partition past the usable end has no room", () => {
    expect(
      layoutSizeMax({
        offset: 3n * gib,
        diskSize: 2n * gib,
        logicalSectorSize: 512,
        partitionStyle: 2,
      }),
    ).toBe(0n);
  });
});

describe("resizeDecision", () => {
  it("a request above the disk is unreachable, not clamped", () => {
    expect(resizeDecision(gib, 3n * gib, 2n * gib - 2n * mib, 2n * gib)).toMatchObject({
      resize: false,
      unreachable: true,
    });
  });

  it("a request of exactly the disk's size is clamped to SizeMax", () => {
    expect(resizeDecision(gib, 2n * gib, 2n * gib - 2n * mib, 2n * gib)).toEqual({
      resize: true,
      target: 2n * gib - 2n * mib,
      unreachable: false,
    });
  });
});
