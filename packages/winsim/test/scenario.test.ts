import { describe, expect, it } from "vitest";
import { buildScenario, scenarios } from "../src/index.js";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

describe("buildScenario", () => {
  it("lays out a GPT disk as Windows does: MSR at 17408, first data partition at 16 MiB", () => {
    const { state } = buildScenario(
      { systemDisk: false, disks: [{ number: 1, size: 10 * GiB, partitions: [{}] }] },
      "/sandbox",
    );
    expect(
      state.partitions.map((p) => [p.partitionNumber, p.offset, p.size, p.volume === null]),
    ).toEqual([
      [1, 17408, 16759808, true],
      [2, 16 * MiB, 10719592448, false],
    ]);
    expect(state.volumes[0]).toMatchObject({ fileSystem: "NTFS", size: 10719592448 });
  });

  it("derives MBR volume GUIDs from the disk signature and the partition offset", () => {
    const { state } = buildScenario(
      {
        systemDisk: false,
        disks: [{ partitionStyle: "MBR", signature: 0xc466e9e6, partitions: [{ size: GiB }] }],
      },
      "/sandbox",
    );
    expect(state.partitions[0]).toMatchObject({ offset: MiB, mbrType: 7, gptType: null });
    expect(state.volumes[0]?.guid).toBe("c466e9e6-0000-0000-0000-100000000000");
  });

  it("puts C: on '/' on the system disk and resolves relative mounts against the sandbox", () => {
    const built = buildScenario(
      { disks: [{ number: 3, lun: 3, partitions: [{ accessPaths: ["mnt/data"] }] }] },
      "/sandbox",
    );
    const c = built.state.partitions.find((p) => p.driveLetter === "C");
    expect(c?.accessPaths).toEqual(["/"]);
    expect(built.mounts).toEqual([{ path: "/sandbox/mnt/data/", volume: expect.any(String) }]);
    const disk = built.state.disks.find((d) => d.number === 3);
    expect(disk?.location).toBe("PCI Slot 3 : Adapter 0 : Port 0 : Target 0 : LUN 3");
    expect(disk?.partitionStyle).toBe(2);
  });

  it("encodes page 83 specs as device ids", () => {
    const { state } = buildScenario(
      {
        systemDisk: false,
        disks: [
          { number: 1, page83: { ascii: "Google  persistent-disk-0" } },
          { number: 2, page83: { naa: "60022480AB" } },
        ],
      },
      "/sandbox",
    );
    expect(state.disks[0]?.deviceIds).toEqual([
      {
        codeSet: 2,
        type: 1,
        association: 0,
        hex: Buffer.from("Google  persistent-disk-0").toString("hex"),
      },
    ]);
    expect(state.disks[1]?.deviceIds).toEqual([
      { codeSet: 1, type: 3, association: 0, hex: "60022480ab" },
    ]);
  });

  it("rejects partitions that do not fit and duplicate disk numbers", () => {
    expect(() =>
      buildScenario(
        { systemDisk: false, disks: [{ size: GiB, partitions: [{ size: 2 * GiB }] }] },
        "/s",
      ),
    ).toThrow(RangeError);
    expect(() => buildScenario({ disks: [{ number: 0 }] }, "/s")).toThrow(/used twice/);
  });

  it("demo has the bus types and odd disks the contract asks for", () => {
    const { state } = buildScenario(scenarios.demo(), "/sandbox");
    const bus = (n: number) => state.disks.find((d) => d.number === n);
    expect(state.disks.map((d) => d.busType).sort((a, b) => a - b)).toEqual([
      9, 10, 10, 10, 10, 15, 17,
    ]);
    expect(bus(3)?.location).toBeNull();
    expect(bus(2)?.location).toMatch(/^Integrated : Bus 0 : Device \d+ : Function/);
    expect(bus(4)).toMatchObject({
      partitionStyle: 0,
      location: "PCI Slot 3 : Adapter 0 : Port 0 : Target 0 : LUN 3",
    });
    expect(bus(5)).toMatchObject({ isOffline: true, isReadOnly: true, offlineReason: 1 });
    expect(bus(6)).toMatchObject({
      isOffline: true,
      offlineReason: 4,
      signature: bus(3)?.signature,
    });
    expect(bus(1)?.serialNumber).toBe("                    ");
  });
});
