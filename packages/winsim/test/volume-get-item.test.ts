import { linkSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import type { ScenarioSpec } from "../src/index.js";
import { useHost } from "./host.js";

const volumeGuid = "0a1b2c3d-0000-4000-8000-00000000f4f4";

// A data volume mounted on a folder (no letter), as CSI staging does.
const spec = (powershell?: "5.1" | "7"): ScenarioSpec => ({
  ...(powershell === undefined ? {} : { powershell }),
  disks: [
    {
      number: 1,
      size: 1024 * 1024 * 1024,
      partitions: [{ volumeGuid, accessPaths: ["mnt/vol"] }],
    },
  ],
});

/** What a script sees of Get-Item: LinkType, Target's type and values. */
const shape = ps("winsim.test.itemShape")`
  param([string]$Path)
  $item = Get-Item -LiteralPath $Path -Force
  $target = $item.Target
  $type = ''
  if ($null -ne $target) { $type = $target.GetType().Name }
  [pscustomobject]@{
    linkType = [string]$item.LinkType
    targetType = $type
    targets = @(@($target) | Where-Object { $null -ne $_ } | ForEach-Object { [string]$_ })
    isContainer = [bool]$item.PSIsContainer
    fullName = $item.FullName
  }
`;

describeWithPwsh("Get-Item answers as Windows PowerShell 5.1 (the default)", (pwsh) => {
  const host = useHost(pwsh, spec());

  it("a volume mount point is a Junction whose Target is string[] Volume{guid}\\", async () => {
    expect(await host.shell.run(shape, { Path: join(host.sim.root, "mnt/vol") })).toMatchObject({
      linkType: "Junction",
      targetType: "String[]",
      targets: [`Volume{${volumeGuid}}\\`],
      isContainer: true,
    });
  });

  it("a plain folder on the folder-mounted volume gets a bogus hard-link target: root + its name on that volume", async () => {
    mkdirSync(join(host.sim.root, "mnt/vol/data"), { recursive: true });
    expect(
      await host.shell.run(shape, { Path: join(host.sim.root, "mnt/vol/data") }),
    ).toMatchObject({ linkType: "", targetType: "String[]", targets: ["/data"] });
  });

  it("a plain file or folder off mounted volumes lists no target (its own name is left out)", async () => {
    const dir = join(host.sim.root, "plain");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "f.txt"), "x");
    for (const path of [dir, join(dir, "f.txt")]) {
      expect(await host.shell.run(shape, { Path: path })).toMatchObject({
        linkType: "",
        targetType: "String[]",
        targets: [],
      });
    }
  });

  it("a plain item reached through a symbolic link names its real path (5.1 builds it from the root)", async () => {
    const real = join(host.sim.root, "real-dir");
    mkdirSync(join(real, "sub"), { recursive: true });
    symlinkSync(real, join(host.sim.root, "via-link"));
    expect(
      await host.shell.run(shape, { Path: join(host.sim.root, "via-link/sub") }),
    ).toMatchObject({ targets: [join(real, "sub")] });
  });

  it("a symbolic link is a SymbolicLink with a string[] target; a file with two names is a HardLink", async () => {
    const dir = join(host.sim.root, "sl-target");
    mkdirSync(dir, { recursive: true });
    symlinkSync(dir, join(host.sim.root, "sl"));
    expect(await host.shell.run(shape, { Path: join(host.sim.root, "sl") })).toMatchObject({
      linkType: "SymbolicLink",
      targetType: "String[]",
      targets: [dir],
    });
    writeFileSync(join(host.sim.root, "one"), "x");
    linkSync(join(host.sim.root, "one"), join(host.sim.root, "two"));
    expect(await host.shell.run(shape, { Path: join(host.sim.root, "one") })).toMatchObject({
      linkType: "HardLink",
    });
  });
});

describeWithPwsh("Get-Item answers as PowerShell 7 when the scenario says so", (pwsh) => {
  const host = useHost(pwsh, spec("7"));

  it("a mount point is a Junction with a string Target; plain items have none", async () => {
    expect(await host.shell.run(shape, { Path: join(host.sim.root, "mnt/vol") })).toMatchObject({
      linkType: "Junction",
      targetType: "String",
      targets: [`Volume{${volumeGuid}}\\`],
    });
    mkdirSync(join(host.sim.root, "mnt/vol/data"), { recursive: true });
    expect(
      await host.shell.run(shape, { Path: join(host.sim.root, "mnt/vol/data") }),
    ).toMatchObject({ linkType: "", targetType: "", targets: [] });
  });
});
