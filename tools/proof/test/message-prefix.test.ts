import { describe, expect, it } from "vitest";
import { repeatedPrefix } from "./message-prefix.js";

describe("repeatedPrefix", () => {
  it.each([
    [
      "startService",
      "startService(MSiSCSI) failed: startService(MSiSCSI): only 1000 ms of the call's deadline are left",
      "names startService 2 times",
    ],
    [
      "getDiskStats",
      "getDiskStats(disk 1) failed: disk.get failed: General failure.",
      'says "failed:" 2 times',
    ],
  ])("flags %s: %s", (method, message, why) => {
    expect(repeatedPrefix(method, message)).toBe(why);
  });

  it.each([
    ["startService", "startService(W32Time) failed: Cannot open W32Time service on computer '.'."],
    ["startService", "startService(W32Time) failed: system.startService timed out after 1000 ms."],
    ["getService", "getService did not finish within its 1000 ms deadline."],
    ["mountVolume", "volume.mountVolume failed: General failure."],
  ])("passes %s: %s", (method, message) => {
    expect(repeatedPrefix(method, message)).toBeUndefined();
  });
});
