import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { failure, useHost } from "./host.js";

const itemOf = ps("winsim.test.getItem")`
  param([string]$Path)
  $item = Get-Item -LiteralPath $Path -Force
  [pscustomobject]@{ name = $item.Name; target = [string](@($item.Target) | Select-Object -First 1) }
`;

describeWithPwsh("Get-Item", (pwsh) => {
  const host = useHost(pwsh, {});

  it("gives the real item, link target included, and logs the call", async () => {
    const dir = join(host.sim.root, "gi-real");
    const link = join(host.sim.root, "gi-link");
    mkdirSync(dir, { recursive: true });
    symlinkSync(dir, link);
    host.sim.clearCalls();
    expect(await host.shell.run(itemOf, { Path: dir })).toMatchObject({ name: "gi-real" });
    expect(await host.shell.run(itemOf, { Path: link })).toEqual({ name: "gi-link", target: dir });
    expect(host.sim.calls().map((c) => [c.command, c.parameters.LiteralPath, c.outcome])).toEqual([
      ["Get-Item", [dir], "ok"],
      ["Get-Item", [link], "ok"],
    ]);
  });

  it("keeps the real cmdlet's PathNotFound error for a missing path", async () => {
    const error = await failure(host.shell.run(itemOf, { Path: join(host.sim.root, "none") }));
    expect(error.record).toMatchObject({
      fullyQualifiedErrorId: "PathNotFound,Microsoft.PowerShell.Commands.GetItemCommand",
      category: "ObjectNotFound",
    });
    // The simulator let the call through; the real cmdlet found nothing.
    expect(host.sim.calls().at(-1)?.outcome).toBe("ok");
  });

  it("is reachable by faults", async () => {
    host.sim.fault({
      command: "Get-Item",
      action: "error",
      error: { message: "Access is denied", errorId: "ItemExistsUnauthorizedAccessError" },
    });
    const error = await failure(host.shell.run(itemOf, { Path: host.sim.root }));
    expect(error.record?.fullyQualifiedErrorId).toMatch(/^ItemExistsUnauthorizedAccessError,/);
    expect(host.sim.calls().at(-1)?.outcome).toBe("fault");
  });
});
