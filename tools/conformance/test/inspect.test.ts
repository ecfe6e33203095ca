import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createGroups } from "../src/groups.js";
import { inspect } from "../src/inspect.js";
import { createSimulatorHost } from "../src/simulator-host.js";
import type { ConformanceHost } from "../src/host.js";

describeWithPwsh("read-only inspection", (pwsh) => {
  let host: ConformanceHost;
  let groups: ReturnType<typeof createGroups>;

  beforeAll(async () => {
    host = await createSimulatorHost(pwsh);
    groups = createGroups(host);
    // Something to see: a logged-in target and an SMB mapping, made before the log is cleared.
    const { iscsi, smb } = host;
    await groups.iscsi.addTargetPortal({ targetPortal: iscsi.portal });
    await groups.iscsi.connectTarget({
      targetPortal: iscsi.portal,
      iqn: iscsi.oneWay.iqn,
      authType: "ONE_WAY_CHAP",
      chapUsername: iscsi.oneWay.chapUsername,
      chapSecret: iscsi.oneWay.chapSecret,
    });
    await groups.smb.newSmbGlobalMapping({
      remotePath: smb.remotePath,
      username: smb.username,
      password: smb.password,
    });
  });
  afterAll(async () => {
    await groups.shell.close();
    await host.teardown();
  });

  it("reports disks, volumes, mappings, portals and sessions, calling only Get-* cmdlets", async () => {
    const calls = () => host.cmdletCalls() ?? [];
    const before = calls().length;
    const report = await inspect(groups, [host.iscsi.oneWay.iqn]);
    const commands = [
      ...new Set(
        calls()
          .slice(before)
          .map((c) => c.command),
      ),
    ];
    expect(commands.length).toBeGreaterThan(3);
    expect(commands.filter((c) => !/^Get-/.test(c))).toEqual([]);
    expect(report.disks.map((d) => d.diskNumber)).toEqual(
      expect.arrayContaining([0, ...host.blankDisks]),
    );
    expect(report.smbMappings).toMatchObject({ ok: true, value: [{ status: "OK" }] });
    expect(report.iscsiPortals).toMatchObject({
      ok: true,
      value: [{ address: "localhost", port: 3260 }],
    });
    expect(report.iscsiSessions).toMatchObject([
      { iqn: host.iscsi.oneWay.iqn, disks: { ok: true, value: [expect.any(Number)] } },
    ]);
    expect(report.iscsiInitiatorService).toEqual({ ok: true, value: "RUNNING (MANUAL)" });
    const huge = report.disks.find((d) => d.diskNumber === host.hugeDisk?.diskNumber);
    expect(huge?.totalBytes).toEqual({ ok: true, value: String(host.hugeDisk?.bytes) });
  });

  it("would see a changing call: the log catches a rescan, which is not a Get-*", async () => {
    const before = (host.cmdletCalls() ?? []).length;
    await groups.disk.rescan();
    const after = (host.cmdletCalls() ?? []).slice(before).map((c) => c.command);
    expect(after.filter((c) => !/^Get-/.test(c))).not.toEqual([]);
  });
});
