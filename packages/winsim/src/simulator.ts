import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { PowerShellOptions } from "@csi-proxy/exec";
import { createGate, type BlockedFault, type BlockSpec } from "./fault-gate.js";
import { buildScenario } from "./scenario.js";
import type { CimLatencySpec, ScenarioSpec } from "./spec.js";
import {
  diskOf,
  iscsiSessions,
  mountsOf,
  volumesOnDisk,
  type DiskView,
  type IscsiSessionView,
  type VolumeView,
} from "./state-views.js";
import type { CallLogEntry, FaultSpec, SimState } from "./types.js";

/** Where {@link Simulator.create} puts the host. */
export interface SimulatorOptions {
  /**
   * The host's state folder, kept after the process ends unless you dispose it: another process
   * (or a later run) opens it with {@link Simulator.open}. It must not exist yet or be empty.
   * Default: a new temporary folder.
   */
  readonly dir?: string;
}

/** The PowerShell module that defines the simulated cmdlets. */
export const winsimModulePath = fileURLToPath(new URL("../module/WinSim.psd1", import.meta.url));

/**
 * A simulated Windows host: a state directory that the WinSim module reads and writes, plus a
 * sandbox folder (`root`) for mount paths. Edits from here (`update`, `fault`) are atomic file
 * replacements but do not take the module's lock: make them while no call is running.
 */
export class Simulator {
  /** The host's state folder (state.json, faults.json, calls.jsonl, volumes/); the module's `CSI_WINSIM_DIR`. */
  readonly dir: string;
  /**
   * The sandbox that stands in for the Windows file system: mount paths and `C:\` map under it
   * (see `windowsFilesystemHost`).
   */
  readonly root: string;

  private constructor(dir: string) {
    this.dir = dir;
    this.root = join(dir, "root");
  }

  /**
   * A fresh host with the scenario's state and mounts written: in a new temporary directory, or in
   * `options.dir` (which must not exist or be empty).
   */
  static create(spec: ScenarioSpec = {}, options: SimulatorOptions = {}): Promise<Simulator> {
    const sim = new Simulator(options.dir === undefined ? temporaryDir() : emptyDir(options.dir));
    try {
      mkdirSync(sim.root, { recursive: true });
      const built = buildScenario(spec, sim.root);
      for (const v of built.state.volumes) mkdirSync(sim.volumeDir(v.guid), { recursive: true });
      for (const mount of built.mounts) {
        mkdirSync(dirname(mount.path.slice(0, -1)), { recursive: true });
        symlinkSync(sim.volumeDir(mount.volume), mount.path.slice(0, -1));
      }
      sim.writeJson("state.json", built.state);
      sim.writeJson("faults.json", []);
      sim.setCimLatency(spec.cimLatencyMs);
      writeFileSync(join(sim.dir, "calls.jsonl"), "");
    } catch (error) {
      // A scenario that cannot be built leaves no half-made host behind.
      rmSync(sim.dir, { recursive: true, force: true });
      throw error;
    }
    return Promise.resolve(sim);
  }

  /**
   * The host kept in `dir` by `create(spec, { dir })`, as it was left: several processes (or
   * runs) can share one host this way; the module's lock serialises their calls.
   * Throws when `dir` holds no host (see {@link Simulator.exists}).
   */
  static open(dir: string): Promise<Simulator> {
    if (!Simulator.exists(dir)) {
      return Promise.reject(new Error(`${dir} holds no simulated host (it has no state.json).`));
    }
    return Promise.resolve(new Simulator(resolve(dir)));
  }

  /** Whether `dir` holds a simulated host that {@link Simulator.open} can open. */
  static exists(dir: string): boolean {
    return existsSync(join(dir, "state.json"));
  }

  /** Options for `createPowerShell` that load the simulator against this host. */
  shellOptions(extra: PowerShellOptions = {}): PowerShellOptions {
    return {
      ...extra,
      modules: [...(extra.modules ?? []), winsimModulePath],
      env: { ...extra.env, CSI_WINSIM_DIR: this.dir },
    };
  }

  /**
   * Sets the simulated CIM round-trip time ({@link ScenarioSpec.cimLatencyMs}) for every later
   * cmdlet call, in every process; `undefined` or 0 removes it.
   */
  setCimLatency(latency: number | CimLatencySpec | undefined): void {
    const spec = typeof latency === "number" ? { defaultMs: latency } : latency;
    const ms = (value: unknown, what: string) => {
      if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 60_000)
        throw new RangeError(`${what} must be a whole number of milliseconds from 0 to 60000.`);
      return value;
    };
    const path = join(this.dir, "latency.json");
    if (spec === undefined) {
      rmSync(path, { force: true });
      return;
    }
    const commands = Object.fromEntries(
      Object.entries(spec.commands ?? {}).map(([name, value]) => [name, ms(value, name)]),
    );
    this.writeJson("latency.json", { defaultMs: ms(spec.defaultMs ?? 0, "defaultMs"), commands });
  }

  /** The folder that holds a volume's files (what a mount of it links to). */
  volumeDir(guid: string): string {
    return join(this.dir, "volumes", `Volume{${guid}}`);
  }

  /**
   * The folder the NT device name of a volume stands for, `\\?\GLOBALROOT\Device\HarddiskVolumeN`
   * on Windows: `<dir>/devices/HarddiskVolumeN`, a link to the volume's folder, made when first
   * asked for (Windows names every volume so; a pod can make a junction to that name). N is the
   * volume's place in the state, counted from 1: the simulator's numbering, not Windows'.
   */
  deviceDir(guid: string): string {
    const index = this.state().volumes.findIndex(
      (v) => v.guid.toLowerCase() === guid.toLowerCase(),
    );
    if (index < 0) throw new RangeError(`No volume ${guid} on the simulated host.`);
    const path = join(this.dir, "devices", `HarddiskVolume${index + 1}`);
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true });
      symlinkSync(this.volumeDir(this.state().volumes[index]?.guid ?? guid), path);
    }
    return path;
  }

  /**
   * A snapshot of the host as the module sees it (disks, partitions, volumes, SMB, iSCSI,
   * system): raw CIM codes, read fresh from state.json on every call.
   */
  state(): SimState {
    return JSON.parse(readFileSync(join(this.dir, "state.json"), "utf8")) as SimState;
  }

  /**
   * Edits the host between calls, e.g. to model an out-of-band change (a disk going offline):
   * `edit` mutates a snapshot that is then written back whole.
   */
  update(edit: (state: SimState) => void): void {
    const state = this.state();
    edit(state);
    for (const v of state.volumes) mkdirSync(this.volumeDir(v.guid), { recursive: true });
    this.writeJson("state.json", state);
  }

  /** Every simulated cmdlet call so far, in order, with its bound parameters and outcome. */
  calls(): CallLogEntry[] {
    const path = join(this.dir, "calls.jsonl");
    if (!existsSync(path)) return [];
    return readFileSync(path, "utf8")
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => JSON.parse(line) as CallLogEntry);
  }

  /** Empties the call log; sequence numbers start again at 1. */
  clearCalls(): void {
    writeFileSync(join(this.dir, "calls.jsonl"), "");
    rmSync(join(this.dir, "calls.seq"), { force: true });
  }

  /**
   * Makes the next matching call(s) fail, hang or be noisy (`times` defaults to 1), e.g.
   * `sim.fault({ command: "Format-Volume", error: "..." })`. See `FaultSpec`.
   */
  fault(spec: FaultSpec): void {
    const faults = this.faults();
    faults.push({ times: 1, ...spec });
    this.writeJson("faults.json", faults);
  }

  /**
   * The faults still on file, each with the `times` it has left: a fault at 0 was met, even by a
   * call whose process was killed before the call log could record it.
   */
  faults(): FaultSpec[] {
    return JSON.parse(readFileSync(join(this.dir, "faults.json"), "utf8")) as FaultSpec[];
  }

  /**
   * A fault that holds the next matching call until you release it, so a hang test waits for the
   * call to arrive instead of guessing how long that takes:
   * `const gate = sim.block({ command: "Format-Volume" }); const call = volume.formatVolume(...);
   * await gate.met(); controller.abort(); ... gate.release()`. `action` `delay` (default) holds
   * it before the cmdlet acts, `hangAfter` after it acted and was logged.
   */
  block(spec: BlockSpec): BlockedFault {
    const gate = createGate(this.dir);
    this.fault({ ...spec, action: spec.action ?? "delay", gate: gate.gate });
    return gate;
  }

  /** Removes every fault still on file. */
  clearFaults(): void {
    this.writeJson("faults.json", []);
  }

  /** Disk `number` with its codes named (partition style, operational status, ...); undefined when none. */
  disk(number: number): DiskView | undefined {
    return diskOf(this.state(), number);
  }

  /** The volumes on disk `number`, with their ids, file systems and mount folders. */
  volumesOnDisk(number: number): VolumeView[] {
    return volumesOnDisk(this.state(), number);
  }

  /** The folders a volume (GUID or `\\?\Volume{GUID}\`) is mounted at. */
  mountsOf(volume: string): string[] {
    return mountsOf(this.state(), volume);
  }

  /** The logged-in iSCSI sessions: target, portals, authentication, persistence, disk numbers. */
  iscsiSessions(): IscsiSessionView[] {
    return iscsiSessions(this.state());
  }

  /** Removes the host's directory, mounts included (links are removed, not followed). */
  dispose(): Promise<void> {
    rmSync(this.dir, { recursive: true, force: true });
    return Promise.resolve();
  }

  /** Same as {@link Simulator.dispose}, for `await using sim = await Simulator.create(...)`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  // Same temp-and-rename as the module, so a reader never sees half a file.
  private writeJson(name: string, value: unknown): void {
    const tmp = join(this.dir, `.${name}.node.tmp`);
    writeFileSync(tmp, `${JSON.stringify(value, null, 2)}\n`);
    renameSync(tmp, join(this.dir, name));
  }
}

function temporaryDir(): string {
  return mkdtempSync(join(tmpdir(), "winsim-"));
}

// A host's files must not mix with anything else: dispose() removes the whole folder.
function emptyDir(dir: string): string {
  const full = resolve(dir);
  mkdirSync(full, { recursive: true });
  if (readdirSync(full).length > 0) {
    throw new Error(`${full} is not empty: a new simulated host needs an empty folder.`);
  }
  return full;
}
