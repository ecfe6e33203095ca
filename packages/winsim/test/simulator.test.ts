import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { Simulator, winsimModulePath } from "../src/index.js";

describe("Simulator", () => {
  it("writes the state, links scenario mounts and removes everything on dispose", async () => {
    const sim = await Simulator.create({
      disks: [{ number: 1, partitions: [{ accessPaths: ["pods/a"] }] }],
    });
    const link = join(sim.root, "pods", "a");
    const guid = sim
      .state()
      .partitions.find((p) => p.diskNumber === 1 && p.volume !== null)!.volume!;
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(sim.volumeDir(guid));
    writeFileSync(join(link, "f"), "x");
    expect(existsSync(join(sim.volumeDir(guid), "f"))).toBe(true);
    await sim.dispose();
    expect(existsSync(sim.dir)).toBe(false);
  });

  it("adds the module and state directory to caller options without dropping theirs", async () => {
    const sim = await Simulator.create({ systemDisk: false });
    const options = sim.shellOptions({ modules: ["Other"], env: { A: "1" }, poolSize: 2 });
    expect(options).toEqual({
      modules: ["Other", winsimModulePath],
      env: { A: "1", CSI_WINSIM_DIR: sim.dir },
      poolSize: 2,
    });
    expect(existsSync(winsimModulePath)).toBe(true);
    await sim.dispose();
  });

  it("keeps faults and calls in their files", async () => {
    const sim = await Simulator.create({ systemDisk: false });
    sim.fault({ command: "Get-Disk", action: "delay", delayMs: 10 });
    sim.fault({ command: "*", times: -1, action: "noise" });
    expect(JSON.parse(readFileSync(join(sim.dir, "faults.json"), "utf8"))).toEqual([
      { times: 1, command: "Get-Disk", action: "delay", delayMs: 10 },
      { times: -1, command: "*", action: "noise" },
    ]);
    sim.clearFaults();
    expect(JSON.parse(readFileSync(join(sim.dir, "faults.json"), "utf8"))).toEqual([]);
    expect(sim.calls()).toEqual([]);
    await sim.dispose();
  });
});

describe("a host kept in a folder of your choosing", () => {
  it("is created there, opened again as it was left, and refused in a folder that is not empty", async () => {
    const parent = mkdtempSync(join(tmpdir(), "winsim-keep-"));
    try {
      const dir = join(parent, "node");
      expect(Simulator.exists(dir)).toBe(false);
      const sim = await Simulator.create({ disks: [{ number: 1 }] }, { dir });
      expect(sim.dir).toBe(dir);
      sim.update((state) => {
        state.disks[1]!.isOffline = true;
      });
      expect(Simulator.exists(dir)).toBe(true);
      const again = await Simulator.open(dir);
      expect(again.root).toBe(sim.root);
      expect(again.disk(1)?.operationalStatus).toBe("Offline");
      await expect(Simulator.open(parent)).rejects.toThrow(/holds no simulated host/);
      expect(() => Simulator.create({}, { dir })).toThrow(/is not empty/);
      await again.dispose();
      expect(existsSync(dir)).toBe(false);
    } finally {
      rmSync(parent, { recursive: true, force: true });
    }
  });
});

it("leaves no folder behind when the scenario cannot be built", () => {
  const parent = mkdtempSync(join(tmpdir(), "winsim-bad-"));
  const prior = process.env.TMPDIR;
  process.env.TMPDIR = parent;
  try {
    const tooBig = {
      disks: [{ number: 1, size: 1024 ** 3, partitions: [{ size: 2 * 1024 ** 3 }] }],
    };
    expect(() => Simulator.create(tooBig)).toThrow(/do not fit/);
    expect(readdirSync(parent)).toEqual([]);
  } finally {
    if (prior === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = prior;
    rmSync(parent, { recursive: true, force: true });
  }
});
