import { isScript, type Params, type PowerShell, type Script } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { createPowerShellVolumeHost, Volume, volumeScripts } from "../src/index.js";
import { volumeA } from "./fake-host.js";

/** A PowerShell that records calls and answers from a table keyed by script name. */
function recordingShell(answers: Record<string, unknown>) {
  const calls: { script: Script; params: Params | undefined }[] = [];
  const shell: PowerShell = {
    mode: "session",
    run<T>(script: Script, params?: Params): Promise<T> {
      calls.push({ script, params });
      return Promise.resolve(answers[script.name] as T);
    },
    warmUp: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return { shell, calls };
}

const hostile = "/tmp/x'; Remove-Item -Recurse / #$(whoami)`\"";

describe("PowerShell-backed host", () => {
  it("defines every script as a constant with a param() block and no 7-only syntax", () => {
    for (const script of Object.values(volumeScripts)) {
      expect(isScript(script)).toBe(true);
      expect(script.name).toMatch(/^volume\./);
      expect(script.text).toMatch(/^\s*param\(/);
      for (const banned of [
        "??",
        "?.",
        "&&",
        "||",
        "-AsArray",
        "-Parallel",
        "-AsHashtable",
        "$env:",
      ]) {
        expect(script.text.toLowerCase()).not.toContain(banned.toLowerCase());
      }
    }
  });

  it("passes caller values only as parameters", async () => {
    const { shell, calls } = recordingShell({
      "volume.mountVolume": { Status: "mounted" },
      "volume.findClosestVolume": { Status: "found", VolumeId: volumeA },
    });
    const volume = new Volume({ shell, pathStyle: "posix" });
    await volume.mountVolume({ volumeId: volumeA, targetPath: hostile });
    await volume.getClosestVolumeIdFromTargetPath({ targetPath: hostile });
    expect(calls.map((c) => c.params)).toEqual([
      { VolumeId: volumeA, TargetPath: hostile },
      { TargetPath: hostile, MaxSteps: 256 },
    ]);
    for (const call of calls) expect(call.script.text).not.toContain("whoami");
  });

  it("parses each script's output", async () => {
    const { shell, calls } = recordingShell({
      "volume.listVolumeIds": [volumeA],
      "volume.getVolume": {
        UniqueId: volumeA,
        FileSystem: "NTFS",
        FileSystemType: "NTFS",
        FileSystemLabel: null,
        Size: 9007199254740993n,
        SizeRemaining: 1,
      },
      "volume.resizeVolume": { Status: "resized", Size: 2n ** 60n },
      "volume.getDiskNumbers": 3,
      "volume.unmountVolume": { Status: "otherVolume", Target: "x" },
      "volume.resolveMountTarget": { Status: "notMounted", Path: "/a" },
    });
    const host = createPowerShellVolumeHost(shell);
    expect(await host.listVolumeIds(1, 0)).toEqual([volumeA]);
    expect(await host.getVolume(volumeA)).toMatchObject({
      label: "",
      size: 9007199254740993n,
      sizeRemaining: 1n,
    });
    expect(await host.resizeVolume(volumeA, 2n ** 60n)).toEqual({
      status: "resized",
      sizeBytes: 2n ** 60n,
    });
    expect(await host.resizeVolume(volumeA, 1024n)).toEqual({
      status: "resized",
      sizeBytes: 2n ** 60n,
    });
    expect(await host.getDiskNumbers(volumeA)).toEqual([3]);
    expect(await host.unmountVolume(volumeA, "/a")).toEqual({ status: "otherVolume", target: "x" });
    expect(await host.resolveMountTarget("/a", 256)).toEqual({ status: "notMounted", path: "/a" });
    const resizes = calls.filter((c) => c.script.name === "volume.resizeVolume");
    expect(resizes.map((c) => c.params)).toEqual([
      { VolumeId: volumeA, Requested: 2n ** 60n, MinimumGrowth: 100 * 1024 * 1024 },
      { VolumeId: volumeA, Requested: 1024, MinimumGrowth: 100 * 1024 * 1024 },
    ]);
  });

  it.each([
    ["volume.getVolume", { UniqueId: volumeA, Size: -1, SizeRemaining: 0 }],
    ["volume.getVolume", "text"],
    ["volume.mountVolume", { Status: "weird" }],
    ["volume.getDiskNumbers", ["x"]],
    ["volume.resizeVolume", { Status: "grown" }],
    ["volume.resizeVolume", { Status: "unreachable", DiskSize: -1 }],
  ])("rejects malformed output of %s with PARSE_FAILED", async (name, answer) => {
    const { shell } = recordingShell({ [name]: answer });
    const host = createPowerShellVolumeHost(shell);
    const call =
      name === "volume.getVolume"
        ? host.getVolume(volumeA)
        : name === "volume.mountVolume"
          ? host.mountVolume(volumeA, "/a")
          : name === "volume.resizeVolume"
            ? host.resizeVolume(volumeA, 0n)
            : host.getDiskNumbers(volumeA);
    await expect(call).rejects.toMatchObject({ code: "PARSE_FAILED" });
  });

  it("closes the PowerShell host it created itself", async () => {
    const volume = new Volume({ pathStyle: "posix" });
    await volume.close();
    await expect(volume.getVolumeStats({ volumeId: volumeA })).rejects.toMatchObject({
      code: "ABORTED",
    });
  });

  it("closes only a shell it created itself", async () => {
    let closed = 0;
    const { shell } = recordingShell({});
    shell.close = () => {
      closed++;
      return Promise.resolve();
    };
    await new Volume({ shell }).close();
    expect(closed).toBe(0);
  });
});

describe("parsing helpers", () => {
  it("keeps byte counts exact and lists as arrays", async () => {
    const { toByteCount, parseVolumeIds, parseSize } = await import("../src/parse.js");
    expect(toByteCount(5n)).toBe(5);
    expect(toByteCount(2n ** 53n)).toBe(2n ** 53n);
    expect(parseVolumeIds(undefined)).toEqual([]);
    expect(parseVolumeIds(volumeA)).toEqual([volumeA]);
    expect(parseVolumeIds([volumeA, ""])).toEqual([volumeA]);
    expect(parseSize("Size", 2n ** 60n)).toBe(2n ** 60n);
    expect(() => parseSize("Size", 1.5)).toThrow(/Unexpected Size/);
  });
});
