// What allowed answers teach the ownership index (issue #37), read from the answers' own shapes in
// every API version, and which calls move disk numbers or show the node changed.
import { CsiProxyError } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { learnFromAnswer, movesDiskNumbers, showsChange } from "../src/policy/learn.js";
import type { OwnershipIndex } from "../src/policy/ownership.js";
import type { Resource } from "../src/policy/resources.js";

function recorder() {
  const seen: unknown[][] = [];
  const index = {
    learnTargetDisks: (...args: unknown[]) => seen.push(["targetDisks", ...args]),
    learnVolumeDisk: (...args: unknown[]) => seen.push(["volumeDisk", ...args]),
  } as unknown as OwnershipIndex;
  return { seen, index };
}

const target: Resource = {
  kind: "iscsiTarget",
  portal: { address: "10.0.0.5", port: 3260 },
  iqn: "iqn.x:a",
};
const volumeId = "\\\\?\\Volume{1}\\";

describe("learning from allowed answers", () => {
  it("reads GetTargetDisks, ListVolumesOnDisk and the volume's disk number; not ListDiskIDs, which does not say which disk is the node's own", () => {
    const { seen, index } = recorder();
    learnFromAnswer(index, "iscsi.GetTargetDisks", [target], { diskIDs: ["3", "4"] }, 7);
    learnFromAnswer(
      index,
      "disk.ListDiskIDs",
      [],
      { diskIDs: { "3": { page83: "p3", serial_number: "s3" } } },
      8,
    );
    learnFromAnswer(
      index,
      "disk.ListDiskIDs",
      [],
      { diskIDs: { "4": { identifiers: { page83: "p4", serialNumber: "s4" } } } },
      9,
    );
    learnFromAnswer(
      index,
      "volume.ListVolumesOnDisk",
      [{ kind: "disk", diskNumber: 3 }],
      { volume_ids: [volumeId] },
      10,
    );
    const volume: Resource = { kind: "volume", volumeId };
    learnFromAnswer(index, "volume.GetDiskNumberFromVolumeID", [volume], { disk_number: 3 }, 11);
    learnFromAnswer(index, "volume.GetVolumeDiskNumber", [volume], { diskNumber: "4" }, 12);
    expect(seen).toEqual([
      ["targetDisks", "iqn.x:a", [3, 4], 7],
      ["volumeDisk", volumeId, 3, 10],
      ["volumeDisk", volumeId, 3, 11],
      ["volumeDisk", volumeId, 4, 12],
    ]);
  });

  it("learns nothing from an answer it cannot read whole", () => {
    const { seen, index } = recorder();
    learnFromAnswer(index, "iscsi.GetTargetDisks", [target], { diskIDs: ["3", "x"] }, 1);
    learnFromAnswer(index, "disk.ListDiskIDs", [], { diskIDs: { "3": { page83: 1 } } }, 1);
    learnFromAnswer(index, "volume.GetDiskNumberFromVolumeID", [], { disk_number: 3 }, 1);
    learnFromAnswer(index, "disk.GetDiskState", [], { is_online: true }, 1);
    expect(seen).toEqual([]);
  });

  it("knows which calls can free a disk number and which failures show the node changed", () => {
    expect(movesDiskNumbers("iscsi.DisconnectTarget")).toBe(true);
    expect(movesDiskNumbers("iscsi.RemoveTargetPortal")).toBe(true);
    expect(movesDiskNumbers("iscsi.ConnectTarget")).toBe(false);
    const notFound = new CsiProxyError("gone", { code: "NOT_FOUND" });
    expect(showsChange("disk.GetDiskState", notFound)).toBe(true);
    expect(showsChange("volume.FormatVolume", notFound)).toBe(true);
    expect(showsChange("filesystem.PathExists", notFound)).toBe(false);
    expect(showsChange("disk.GetDiskState", new CsiProxyError("x", { code: "TIMEOUT" }))).toBe(
      false,
    );
  });
});
