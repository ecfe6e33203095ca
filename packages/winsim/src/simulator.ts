import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { PowerShellOptions } from "@csi-proxy/exec";
import { buildScenario } from "./scenario.js";
import type { ScenarioSpec } from "./spec.js";
import type { CallLogEntry, FaultSpec, SimState } from "./types.js";

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

  /** A fresh host in a new temporary directory, with the scenario's state and mounts written. */
  static create(spec: ScenarioSpec = {}): Promise<Simulator> {
    const sim = new Simulator(mkdtempSync(join(tmpdir(), "winsim-")));
    mkdirSync(sim.root, { recursive: true });
    const built = buildScenario(spec, sim.root);
    for (const v of built.state.volumes) mkdirSync(sim.volumeDir(v.guid), { recursive: true });
    for (const mount of built.mounts) {
      mkdirSync(dirname(mount.path.slice(0, -1)), { recursive: true });
      symlinkSync(sim.volumeDir(mount.volume), mount.path.slice(0, -1));
    }
    sim.writeJson("state.json", built.state);
    sim.writeJson("faults.json", []);
    writeFileSync(join(sim.dir, "calls.jsonl"), "");
    return Promise.resolve(sim);
  }

  /** Options for `createPowerShell` that load the simulator against this host. */
  shellOptions(extra: PowerShellOptions = {}): PowerShellOptions {
    return {
      ...extra,
      modules: [...(extra.modules ?? []), winsimModulePath],
      env: { ...extra.env, CSI_WINSIM_DIR: this.dir },
    };
  }

  /** The folder that holds a volume's files (what a mount of it links to). */
  volumeDir(guid: string): string {
    return join(this.dir, "volumes", `Volume{${guid}}`);
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

  /** Removes every fault still on file. */
  clearFaults(): void {
    this.writeJson("faults.json", []);
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
