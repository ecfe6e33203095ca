import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { demoNodeWorld } from "@csi-proxy/winsim";
import { afterAll, expect, it } from "vitest";
import { exitCodes, type SmbJson, type TargetJson } from "../src/index.js";
import { simulatedNodeGroups } from "../src/simulate.js";
import { stagingPathUnder } from "../src/simulated-path.js";
import { runBin } from "./bin-harness.js";

describeWithPwsh("--simulate --state-dir: one simulated node for several runs", (pwsh) => {
  const scratch = mkdtempSync(join(tmpdir(), "cli-state-dir-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const dir = join(scratch, "node");
  const csiProxy = (...argv: string[]) =>
    runBin(["--simulate", "--state-dir", dir, ...argv], { CSI_WINSIM_PWSH: pwsh });
  const staged = stagingPathUnder(join(dir, "root"));

  it("a change made by one run is what the next run sees, and its mounts can be named", async () => {
    const unmap = await csiProxy("--yes", "smb", "unmap", demoNodeWorld.share);
    expect(unmap.code).toBe(0);
    const listed = await csiProxy("--json", "smb", "list");
    expect(JSON.parse(listed.stdout) as SmbJson).toEqual({ mappings: [] });
    const target = await csiProxy("--json", "volumes", "target", staged);
    expect(target.code).toBe(0);
    const { volumeId } = JSON.parse(target.stdout) as TargetJson;
    const unmount = await csiProxy("--yes", "volumes", "unmount", volumeId, staged);
    expect(unmount.stdout).toBe(`Unmounted ${volumeId} from ${staged}.\n`);
    const gone = await csiProxy("volumes", "target", staged);
    expect(gone.code).toBe(exitCodes.NOT_FOUND);
  });

  it("a Windows path is refused before anything runs, saying where the node's folders are", async () => {
    const ran = await csiProxy("volumes", "target", "C:\\var\\lib\\kubelet\\x");
    expect(ran.code).toBe(exitCodes.INVALID_ARGUMENT);
    expect(ran.stderr).toBe(
      `csi-proxy: INVALID_ARGUMENT: C:\\var\\lib\\kubelet\\x is a Windows path, but the simulated node uses Linux paths: its folders are under ${join(dir, "root")} (the staged volume is mounted at ${staged}).\n`,
    );
  });

  it("--state-dir without --simulate, or naming a folder of other things, is bad usage", async () => {
    const ran = await runBin(["--state-dir", dir, "disks", "list"]);
    expect(ran.code).toBe(exitCodes.USAGE);
    expect(ran.stderr).toContain("--state-dir keeps a simulated node: it needs --simulate");
    const busy = mkdtempSync(join(scratch, "busy-"));
    writeFileSync(join(busy, "notes.txt"), "not a node");
    const other = await runBin(["--simulate", "--state-dir", busy, "disks", "list"], {
      CSI_WINSIM_PWSH: pwsh,
    });
    expect(other.code).toBe(exitCodes.USAGE);
    expect(other.stderr).toMatch(/^csi-proxy: USAGE: --state-dir: .* is not empty/);
  });

  it("a temporary node is removed even when the process exits without closing it (a second Ctrl-C)", async () => {
    const tmp = mkdtempSync(join(scratch, "tmp-"));
    const before = new Set(process.listeners("exit"));
    const prior = { TMPDIR: process.env.TMPDIR, CSI_WINSIM_PWSH: process.env.CSI_WINSIM_PWSH };
    Object.assign(process.env, { TMPDIR: tmp, CSI_WINSIM_PWSH: pwsh });
    const groups = await simulatedNodeGroups({ simulate: true }).finally(() => {
      for (const [name, value] of Object.entries(prior)) {
        if (value === undefined) Reflect.deleteProperty(process.env, name);
        else process.env[name] = value;
      }
    });
    try {
      const [node] = readdirSync(tmp).filter((e) => e.startsWith("winsim-"));
      expect(node).toBeDefined();
      const added = process.listeners("exit").filter((l) => !before.has(l));
      expect(added).toHaveLength(1);
      // What process.exit(130) runs: the folder goes, with no await.
      (added[0] as () => void)();
      expect(existsSync(join(tmp, node ?? ""))).toBe(false);
    } finally {
      await groups.close();
    }
    expect(process.listeners("exit").filter((l) => !before.has(l))).toEqual([]);
  });
});
