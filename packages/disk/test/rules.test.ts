import { describe, expect, it } from "vitest";
import { normalizeSerialNumber, parseLocation } from "../src/rules.js";

describe("parseLocation (upstream's Location parser)", () => {
  it("reads the csi-proxy example", () => {
    expect(parseLocation("PCI Slot 3 : Adapter 0 : Port 0 : Target 1 : LUN 0")).toEqual({
      adapter: "0",
      bus: "",
      target: "1",
      lunId: "0",
    });
  });

  it("reads Bus from the Server 2025 / physical formats", () => {
    expect(
      parseLocation(
        "Integrated : Bus 0 : Device 8331 : Function 65486 : Adapter 2 : Port 0 : Target 0 : LUN 0",
      ),
    ).toEqual({ adapter: "2", bus: "0", target: "0", lunId: "0" });
  });

  it("reads an Azure data disk LUN", () => {
    expect(parseLocation("Integrated : Adapter 3 : Port 0 : Target 0 : LUN 1")?.lunId).toBe("1");
  });

  it.each([
    ["null", null],
    ["empty", ""],
    ["a VHD file path", "C:\\ProgramData\\containerd\\sandbox.vhdx"],
    ["a VHD path with drive and stream colons", "C:\\a\\b.vhdx:stream:x"],
    ["Gen1 IDE (four segments)", "PCI Slot 0 : Adapter 0 : Channel 0 : Device 0"],
    ["a short NVMe form", "Integrated : Bus 0 : Adapter 0"],
    ["a PnP location path", "PCIROOT(0)#PCI(0400)#SCSI(P00T00L00)"],
    ["VMware's SCSI0", "SCSI0"],
    ["five segments without pairs", "a : b : c : d : e"],
    [
      "five segments of three tokens",
      "PCI Slot 1 : PCI Slot 2 : PCI Slot 3 : PCI Slot 4 : PCI Slot 5",
    ],
  ])("skips %s", (_name, location) => {
    expect(parseLocation(location)).toBeUndefined();
  });

  it("keeps a disk with only an unknown pair, with empty fields (as upstream)", () => {
    expect(parseLocation("x : y : z : w : Port 0")).toEqual({
      adapter: "",
      bus: "",
      target: "",
      lunId: "",
    });
  });

  it("matches keys case-sensitively and ignores double-spaced pairs", () => {
    expect(parseLocation("PCI Slot 3 : adapter 7 : Port 0 : Target  5 : LUN 2")).toEqual({
      adapter: "",
      bus: "",
      target: "",
      lunId: "2",
    });
  });

  it("keeps values as strings, leading zeros included", () => {
    expect(parseLocation("PCI Slot 3 : Adapter 00 : Port 0 : Target 01 : LUN 010")).toEqual({
      adapter: "00",
      bus: "",
      target: "01",
      lunId: "010",
    });
  });
});

describe("normalizeSerialNumber", () => {
  it.each([
    [null, ""],
    ["", ""],
    ["                    ", ""],
    ["  S5GENJ0N808902D", "S5GENJ0N808902D"],
    ["vol0123456789abcdef0  ", "vol0123456789abcdef0"],
    ["0025_3846_3140_F11C.", "0025_3846_3140_F11C."],
    ["\tA B\n", "A B"],
  ])("%j → %j", (input, expected) => {
    expect(normalizeSerialNumber(input)).toBe(expected);
  });
});
