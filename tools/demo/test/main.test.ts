import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { world } from "../src/world.js";

// The built entry `pnpm demo` runs, so this is the main job exactly as a fresh clone runs it.
const main = fileURLToPath(new URL("../dist/main.js", import.meta.url));

interface Run {
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
}

function demo(...args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile("node", [main, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      resolve({ exitCode, stdout, stderr });
    });
  });
}

interface Step {
  readonly step: string;
  readonly ok: boolean;
}

describeWithPwsh("pnpm demo on the simulated host", () => {
  it("runs every step of a node's life and leaves the host clean (--json)", async () => {
    const run = await demo("--json");
    expect(run.exitCode).toBe(0);
    const report = JSON.parse(run.stdout) as { mode: string; host: string; steps: Step[] };
    expect(report).toMatchObject({ mode: "session", host: "sim" });
    expect(report.steps.filter((s) => !s.ok)).toEqual([]);
    expect(report.steps).toHaveLength(26);
    const groups = report.steps.map((s) => s.step.slice(0, s.step.indexOf(":")));
    expect([...new Set(groups)]).toEqual([
      "system",
      "iscsi",
      "disk",
      "volume",
      "filesystem",
      "smb",
      "unpublish",
      "unstage smb",
      "unstage volume",
      "unstage disk",
      "unstage iscsi",
      "check",
    ]);
    expect(report.steps.at(-1)?.step).toBe("check: the host is clean");
  });

  it("shows each script and its parameters with --verbose, and never a secret", async () => {
    const run = await demo("--verbose");
    expect(run.exitCode).toBe(0);
    const shown = `${run.stdout}\n${run.stderr}`;
    expect(shown).toMatch(/^ {4}ps> iscsi\.\S+ \{/m);
    expect(shown).toMatch(/^ {4}ps> smb\.\S+ \{/m);
    expect(shown).toMatch(/\bsteps ok\b/);
    for (const secret of [world.chap.secret, world.smbPassword])
      expect(shown).not.toContain(secret);
    // The secrets were bound as parameters, and shown only as the marker.
    expect(shown).toContain("[REDACTED]");
  });
});
