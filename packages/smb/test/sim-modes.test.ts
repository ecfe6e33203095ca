import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspect } from "node:util";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { uncToLocal } from "@csi-proxy/winsim";
import { beforeEach, expect, it } from "vitest";
import { alice, causeId, failure, useSmbSim } from "./sim-setup.js";

// Each spawn-mode call starts a PowerShell process (1–3 s), so this suite keeps to a few calls.
describeWithPwsh("Smb on the simulated host (spawn mode)", (pwsh) => {
  const h = useSmbSim(pwsh, "spawn");
  beforeEach(() => h().reset());

  it("maps, reuses and removes a share, one process per call", async () => {
    const { sim, smb } = h();
    const remotePath = h().shareFolder("\\\\fs1\\data\\pv-1");
    const localPath = h().local("pv-1");
    expect(await smb.newSmbGlobalMapping({ remotePath, localPath, ...alice })).toEqual({
      mapping: "created",
      link: "created",
    });
    writeFileSync(join(localPath, "f.txt"), "spawned");
    expect(readFileSync(join(uncToLocal(sim, remotePath), "f.txt"), "utf8")).toBe("spawned");
    expect((await smb.newSmbGlobalMapping({ remotePath, localPath, ...alice })).mapping).toBe(
      "reused",
    );
    expect(await smb.removeSmbGlobalMapping({ remotePath })).toEqual({ removed: true });
    const pids = new Set(
      h()
        .calls()
        .map((c) => c.pid),
    );
    expect(pids.size).toBe(3);
  });

  it("reports a wrong password as PERMISSION_DENIED, the password kept out of error and log", async () => {
    const password = "Spawned-Wrong-Secret-7";
    const error = await failure(
      h().smb.newSmbGlobalMapping({
        remotePath: "\\\\fs1\\data",
        username: alice.username,
        password,
      }),
    );
    expect(error.code).toBe("PERMISSION_DENIED");
    expect(causeId(error)).toBe("Windows System Error 1326,New-SmbGlobalMapping");
    expect(inspect(error, { depth: null, showHidden: true })).not.toContain(password);
    expect(readFileSync(join(h().sim.dir, "calls.jsonl"), "utf8")).not.toContain(password);
  });
});

describeWithPwsh("Smb on a pool of two sessions", (pwsh) => {
  const h = useSmbSim(pwsh, "session", 2);
  beforeEach(() => h().reset());

  it("serialises two volumes of one share: one mapping is created, the other reused", async () => {
    const { sim, smb } = h();
    const results = await Promise.all(
      ["pv-1", "pv-2"].map((pv) =>
        smb.newSmbGlobalMapping({
          remotePath: h().shareFolder(`\\\\fs1\\data\\${pv}`),
          localPath: h().local(pv),
          ...alice,
        }),
      ),
    );
    expect(results.map((r) => r.mapping).sort()).toEqual(["created", "reused"]);
    expect(results.map((r) => r.link)).toEqual(["created", "created"]);
    expect(sim.state().smb?.mappings).toHaveLength(1);
    const creates = h()
      .calls()
      .filter((c) => c.command === "New-SmbGlobalMapping");
    expect(creates.map((c) => c.outcome)).toEqual(["ok"]);
  });
});
