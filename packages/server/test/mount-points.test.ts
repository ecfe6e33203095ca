// What a driver's pod can do by itself in the folders it has mounted (issue #33, items 1, 2, 9):
// make a volume mount point (a junction to `\??\Volume{guid}\`), a junction to the volume's NT
// device name (`\??\GLOBALROOT\Device\HarddiskVolumeN\`) or a symbolic link to a volume's GUID
// path, and swap them in while calls run. On Windows, Node's lstat of such a junction reports a
// plain folder (libuv's fs__stat_impl follows what fs__readlink_handle refuses); the simulated
// node reports them so (packages/winsim/src/fs-host.ts). Two drivers, each on its own endpoint
// set with its own disk (granted by page 83 id) mounted at its own staging folder; the calls are
// sent by test/raw-grpc.ts, a client built without the server's code, and every refusal checks
// the audit log and that no cmdlet but a read ran on the host.
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { describeWithPwsh, inBatches } from "@csi-proxy/test-utils";
import {
  demoNodeWorld as world,
  scenarios,
  Simulator,
  smbShareDir,
  type CallLogEntry,
} from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import { kubeletPublishes, startOnScenario, type RunningBin } from "./harness.js";
import type { Reply } from "./raw-grpc.js";

const OK = 0;
const PERMISSION_DENIED = 7;
const kubelet = "C:\\var\\lib\\kubelet";

interface Tenant {
  readonly set: "a" | "b";
  readonly driver: string;
  readonly naa: string;
  readonly guid: string;
  readonly staging: string;
}
const tenant = (set: "a" | "b", digit: string): Tenant => ({
  set,
  driver: `${set}.csi.example.com`,
  naa: `6001405${set.repeat(4)}00000000000000000000${digit}`,
  guid: `${digit.repeat(8)}-0000-4000-8000-${digit.repeat(12)}`,
  staging: `${kubelet}\\plugins\\kubernetes.io\\csi\\${set}.csi.example.com\\pv-${set}\\globalmount`,
});
const A = tenant("a", "1");
const B = tenant("b", "2");
const volumeOf = (t: Tenant) => `\\\\?\\Volume{${t.guid}}\\`;

function scenario(): unknown {
  const spec = scenarios.demoNode();
  const disk = (t: Tenant, number: number) => ({
    number,
    size: 2 * 1024 ** 3,
    page83: { naa: t.naa },
    partitions: [
      {
        volumeGuid: t.guid,
        label: t.set,
        accessPaths: [t.staging.slice(3).replaceAll("\\", "/")],
      },
    ],
  });
  return { ...spec, disks: [...(spec.disks ?? []), disk(A, 7), disk(B, 8)] };
}

const rule = (t: Tenant) => ({
  name: `driver-${t.set}`,
  callers: [{ endpointSet: t.set }],
  methods: ["filesystem.*", "volume.*", "disk.*", "smb.*"],
  driver: t.driver,
  disks: { page83: [t.naa] },
  // Granted, so that only where the link to it lies can refuse it (item 9).
  smbRemotePaths: [world.share],
});

describeWithPwsh("mount points and links a driver's pod makes by itself", (pwsh) => {
  let bin: RunningBin;
  let auditLog: string;
  let sim: Simulator;
  const host = (path: string) => join(bin.ready.simulator.root, ...path.slice(3).split("\\"));
  const plugin = (t: Tenant) => `${kubelet}\\plugins\\${t.driver}`;

  beforeAll(async () => {
    const policy = { version: 1, rules: [rule(A), rule(B)] };
    ({ bin, auditLog } = await startOnScenario(pwsh, scenario(), policy, [
      "--endpoint-set",
      "a",
      "--endpoint-set",
      "b",
    ]));
    sim = await Simulator.open(bin.ready.simulator.dir);
    writeFileSync(join(sim.volumeDir(B.guid), "data"), "b's data");
    writeFileSync(join(sim.volumeDir(A.guid), "data"), "a's data");
    for (const t of [A, B]) mkdirSync(host(plugin(t)), { recursive: true });
  });

  afterAll(async () => {
    expect(await bin.stop()).toBe(0);
  });

  const call = (t: Tenant, endpoint: string, method: string, request: Record<string, unknown>) =>
    bin.client(`${t.set}/${endpoint}`).call(method, request);

  async function ok(t: Tenant, endpoint: string, method: string, request: Record<string, unknown>) {
    const reply = await call(t, endpoint, method, request);
    expect(reply.code, `${t.set}: ${method} ${JSON.stringify(request)}: ${reply.details}`).toBe(OK);
    return reply.message ?? {};
  }

  const calls = (): CallLogEntry[] => sim.calls();
  const changing = (entries: CallLogEntry[]) =>
    entries.filter((c) => !/^(Get|Test)-/.test(c.command)).map((c) => c.command);

  /** PERMISSION_DENIED, audited as a deny, saying nothing of B, with nothing but reads run. */
  async function refused(
    t: Tenant,
    endpoint: string,
    method: string,
    request: Record<string, unknown>,
  ): Promise<Reply> {
    const before = calls().length;
    const reply = await call(t, endpoint, method, request);
    expect(reply.code, `${method} ${JSON.stringify(request)}: ${reply.details}`).toBe(
      PERMISSION_DENIED,
    );
    // The request's own paths may be echoed; nothing else of B or of where links lead may be.
    let told = reply.details;
    for (const value of Object.values(request))
      if (typeof value === "string") told = told.replaceAll(value, "");
    for (const secret of [B.driver, B.guid, "Volume{", "GLOBALROOT", bin.ready.simulator.root]) {
      expect(told).not.toContain(secret);
    }
    expect(changing(calls().slice(before))).toEqual([]);
    const last = JSON.parse(readFileSync(auditLog, "utf8").trim().split("\n").at(-1) ?? "{}") as {
      decision?: string;
      method?: string;
    };
    expect(last.decision).toBe("deny");
    return reply;
  }

  function bUntouched(): void {
    expect(readdirSync(sim.volumeDir(B.guid)).sort()).toEqual(["data"]);
    expect(readFileSync(join(sim.volumeDir(B.guid), "data"), "utf8")).toBe("b's data");
  }

  /** Every method through `path`, which leads into B's volume: each one refused. */
  async function everyMethodRefused(path: string): Promise<void> {
    await refused(A, "filesystem-v1", "PathExists", { path: `${path}\\data` });
    await refused(A, "filesystem-v1", "PathExists", { path });
    await refused(A, "volume-v1", "GetVolumeIDFromTargetPath", { target_path: path });
    await refused(A, "volume-v2alpha1", "GetClosestVolumeIDFromTargetPath", { target_path: path });
    await refused(A, "filesystem-v1", "Mkdir", { path: `${path}\\x` });
    await refused(A, "filesystem-v2alpha1", "RmdirContents", { path });
    await refused(A, "filesystem-v1", "Rmdir", { path: `${path}\\data`, force: true });
    const podA = kubeletPublishes(bin.ready.simulator.root, "pod-a1", "pv-a1", A.driver);
    await refused(A, "filesystem-v1", "CreateSymlink", {
      source_path: path,
      target_path: `${podA}\\mount`,
    });
    expect(existsSync(host(`${podA}\\mount`))).toBe(false);
    bUntouched();
  }

  it("item 1: a volume mount point to B's volume in A's own folder leads A nowhere", async () => {
    const mnt = `${plugin(A)}\\mnt`;
    // mountvol / a junction to \??\Volume{guid}\: the simulator's mount-point form.
    symlinkSync(sim.volumeDir(B.guid), host(mnt));
    await everyMethodRefused(mnt);
    // A may still look at the name itself and remove it (RemoveDirectory removes the junction).
    expect(await ok(A, "filesystem-v1", "IsSymlink", { path: mnt })).toEqual({ is_symlink: true });
    await ok(A, "filesystem-v1", "Rmdir", { path: mnt });
    expect(existsSync(host(mnt))).toBe(false);
    bUntouched();
  });

  it("item 1: nor does a junction to B's volume device, or a symbolic link to its GUID path", async () => {
    const device = `${plugin(A)}\\dev`;
    symlinkSync(sim.deviceDir(B.guid), host(device));
    await everyMethodRefused(device);
    const guidLink = `${plugin(A)}\\guid`;
    // mklink /D guid \\?\Volume{guid}\: the simulator's symbolic-link form (trailing '/').
    symlinkSync(`${sim.volumeDir(B.guid)}/`, host(guidLink));
    await everyMethodRefused(guidLink);
    // A junction to a device path is refused even for A's own volume: it is no path to check.
    const ownDevice = `${plugin(A)}\\own-dev`;
    symlinkSync(sim.deviceDir(A.guid), host(ownDevice));
    await refused(A, "filesystem-v1", "PathExists", { path: `${ownDevice}\\data` });
    for (const name of [device, guidLink, ownDevice]) unlinkSync(host(name));
  });

  it("item 1: inside its own volume, and through a mount point of its own, A is served", async () => {
    const volumeId = volumeOf(A);
    expect(
      await ok(A, "volume-v1", "GetVolumeIDFromTargetPath", { target_path: A.staging }),
    ).toEqual({ volume_id: volumeId });
    expect(await ok(A, "filesystem-v1", "PathExists", { path: `${A.staging}\\data` })).toEqual({
      exists: true,
    });
    await ok(A, "filesystem-v1", "Mkdir", { path: `${A.staging}\\made` });
    expect(existsSync(join(sim.volumeDir(A.guid), "made"))).toBe(true);
    // A junction of A's own to its own volume, in its plugin folder, is A's volume too.
    const own = `${plugin(A)}\\own`;
    symlinkSync(sim.volumeDir(A.guid), host(own));
    await ok(A, "filesystem-v1", "Rmdir", { path: `${own}\\made` });
    expect(existsSync(join(sim.volumeDir(A.guid), "made"))).toBe(false);
    unlinkSync(host(own));
    // B's staging is B's: A cannot reach it by its name either.
    await refused(A, "filesystem-v1", "PathExists", { path: `${B.staging}\\data` });
  });

  it("item 1: A's staging swapped for a junction to B's volume while calls run never reaches it", async () => {
    const sub = `${plugin(A)}\\swap`;
    const outcomes = await whileRepointed(
      sub,
      sim.volumeDir(B.guid),
      () =>
        inBatches(100, (i) =>
          i % 2 === 0
            ? call(A, "filesystem-v1", "Mkdir", { path: `${sub}\\x${i}` })
            : call(A, "filesystem-v2alpha1", "RmdirContents", { path: sub }),
        ),
      5,
    );
    // Most calls meet a swap and are refused (about 70 of 100 here).
    expectServedOrRefused(outcomes);
    bUntouched();
    // The swapping over (the link on A's own folder), the same calls are served: the refusals
    // were the swaps', not a path that never works.
    await ok(A, "filesystem-v1", "Mkdir", { path: `${sub}\\after` });
    await ok(A, "filesystem-v2alpha1", "RmdirContents", { path: sub });
  });

  it("item 2: a published volume stays A's, whatever A's pod later does to the staging name", async () => {
    const podA = kubeletPublishes(bin.ready.simulator.root, "pod-a2", "pv-a2", A.driver);
    const target = `${podA}\\mount`;
    await ok(A, "filesystem-v1", "CreateSymlink", { source_path: A.staging, target_path: target });
    // The link leads to A's volume by its GUID path, not to the staging name.
    expect(readlinkSync(host(target))).toBe(`${sim.volumeDir(A.guid)}/`);
    expect(await ok(A, "filesystem-v1", "IsSymlink", { path: target })).toEqual({
      is_symlink: true,
    });
    // A retry (kubelet's) converges on the link already there.
    await ok(A, "filesystem-v1", "CreateSymlink", { source_path: A.staging, target_path: target });
    // A's pod replaces the staging mount point with a junction to B's volume...
    const staging = host(A.staging);
    renameSync(staging, `${staging}-old`);
    symlinkSync(sim.volumeDir(B.guid), staging);
    // ...and the published folder still shows A's volume.
    expect(readFileSync(join(host(target), "data"), "utf8")).toBe("a's data");
    unlinkSync(staging);
    renameSync(`${staging}-old`, staging);
    // The drivers' own unpublish: stats through the pod path, then the link removed as a link.
    expect(await ok(A, "volume-v1", "GetVolumeIDFromTargetPath", { target_path: target })).toEqual({
      volume_id: volumeOf(A),
    });
    await ok(A, "filesystem-v1", "Rmdir", { path: target, force: true });
    expect(existsSync(host(target))).toBe(false);
    expect(readFileSync(join(sim.volumeDir(A.guid), "data"), "utf8")).toBe("a's data");
    // A source that leads to no volume and no share is not published: A could re-point it.
    const plain = `${plugin(A)}\\plain`;
    mkdirSync(host(plain));
    await refused(A, "filesystem-v1", "CreateSymlink", { source_path: plain, target_path: target });
    rmSync(host(plain), { recursive: true });
  });

  it("item 9: a link a workload pod made inside A's mounted volume is not A's", async () => {
    // The workload writes in its volume, mounted at A's staging: a link to the share there.
    const share = smbShareDir(sim, "files.example.com", "projects");
    mkdirSync(share, { recursive: true });
    symlinkSync(share, join(sim.volumeDir(A.guid), "evil"));
    await refused(A, "filesystem-v1", "PathExists", { path: `${A.staging}\\evil\\x` });
    const podA = kubeletPublishes(bin.ready.simulator.root, "pod-a3", "pv-a3", A.driver);
    await refused(A, "filesystem-v1", "CreateSymlink", {
      source_path: `${A.staging}\\evil`,
      target_path: `${podA}\\mount`,
    });
    unlinkSync(join(sim.volumeDir(A.guid), "evil"));
    // The same link in A's own plugin folder, made by A, is A's.
    const own = `${plugin(A)}\\share-link`;
    symlinkSync(share, host(own));
    await ok(A, "filesystem-v1", "CreateSymlink", {
      source_path: own,
      target_path: `${podA}\\mount`,
    });
    expect(readlinkSync(host(`${podA}\\mount`))).toBe(share);
    await ok(A, "filesystem-v1", "Rmdir", { path: `${podA}\\mount` });
    unlinkSync(host(own));
  });

  it("item 6: another's disk or volume is denied in the words, and with the host calls, of a missing one", async () => {
    // B's own page 83 id, as ListDiskIDs shows it to B: so the probe below is not vacuous.
    const listed = (await ok(B, "disk-v1", "ListDiskIDs", {})) as {
      diskIDs?: Record<string, { page83: string }>;
    };
    const bPage83 = Object.values(listed.diskIDs ?? {}).map((d) => d.page83);
    expect(bPage83).toContain(B.naa);
    await ok(B, "disk-v1alpha1", "GetDiskNumberByName", { disk_name: B.naa });
    const missing = "6001405ffff00000000000000000000f";
    const byName = async (name: string) => {
      const reply = await call(A, "disk-v1alpha1", "GetDiskNumberByName", { disk_name: name });
      return { code: reply.code, details: reply.details.replaceAll(name, "<id>") };
    };
    expect(await byName(B.naa)).toEqual(await byName(missing));
    expect((await byName(missing)).code).toBe(5);

    const statsOf = async (volumeId: string) => {
      const before = calls().length;
      const reply = await call(A, "volume-v1", "GetVolumeStats", { volume_id: volumeId });
      return {
        code: reply.code,
        details: reply.details.replaceAll(volumeId, "<id>"),
        commands: calls()
          .slice(before)
          .map((c) => c.command),
      };
    };
    const other = await statsOf(volumeOf(B));
    const none = await statsOf("\\\\?\\Volume{33333333-0000-4000-8000-333333333333}\\");
    expect(other.code).toBe(PERMISSION_DENIED);
    expect(other).toEqual(none);
  });

  /**
   * Every call of a swap race answered OK or PERMISSION_DENIED, none required to win it: on a
   * loaded machine every call may meet a swap (CI saw 60 of 60 refused). Each race test checks
   * apart that nothing reached B, and that the same call is served once the swapping stops.
   */
  function expectServedOrRefused(outcomes: readonly PromiseSettledResult<unknown>[]): void {
    const codes = outcomes.map((o) => (o.status === "fulfilled" ? (o.value as Reply).code : -1));
    expect(codes.filter((code) => code !== OK && code !== PERMISSION_DENIED)).toEqual([]);
  }

  /**
   * Makes A's `folder` a link that A's pod re-points, atomically (a rename over it), between its
   * own folder (`<folder>-own`) and `to` while `calls` run; each way held up to `holdMs` (long
   * enough for a PowerShell call to see one of them through).
   */
  async function whileRepointed<T>(
    folder: string,
    to: string,
    calls: () => Promise<T>,
    holdMs: number,
  ): Promise<T> {
    const link = host(folder);
    const own = `${link}-own`;
    mkdirSync(own, { recursive: true });
    symlinkSync(own, link);
    const point = (at: string) => {
      symlinkSync(at, `${link}.next`);
      renameSync(`${link}.next`, link);
    };
    const state = { swapping: true };
    const swapper = (async () => {
      while (state.swapping) {
        await new Promise((resolve) => setTimeout(resolve, holdMs * Math.random()));
        point(to);
        await new Promise((resolve) => setTimeout(resolve, holdMs * Math.random()));
        point(own);
      }
    })();
    try {
      return await calls();
    } finally {
      state.swapping = false;
      await swapper;
    }
  }

  it("item 5: an SMB mapping's link never lands in B's folder while A swaps its own", async () => {
    const swap = `${plugin(A)}\\smbswap`;
    mkdirSync(smbShareDir(sim, "files.example.com", "projects"), { recursive: true });
    const outcomes = await whileRepointed(
      swap,
      host(plugin(B)),
      () =>
        inBatches(60, (i) =>
          call(A, "smb-v1", "NewSmbGlobalMapping", {
            remote_path: world.share,
            local_path: `${swap}\\l${i}`,
            username: world.smbUser,
            password: world.smbPassword,
          }),
        ),
      20,
    );
    expectServedOrRefused(outcomes);
    expect(readdirSync(host(plugin(B))).filter((name) => name.startsWith("l"))).toEqual([]);
    // The swapping over (the link on A's own folder), the same mapping is made: the refusals
    // were the swaps', not a path that never works.
    const after = await call(A, "smb-v1", "NewSmbGlobalMapping", {
      remote_path: world.share,
      local_path: `${swap}\\after`,
      username: world.smbUser,
      password: world.smbPassword,
    });
    expect(after.code, after.details).toBe(OK);
  });

  it("item 5: a MountVolume that lands in B's folder through a swapped folder is taken away", async () => {
    // B's kubelet made empty staging folders; A's pod swaps its own folder for a link to them.
    const bFolder = `${plugin(B)}\\pv`;
    const swap = `${plugin(A)}\\mswap`;
    const names = Array.from({ length: 40 }, (_, i) => `m${i}`);
    for (const name of names) {
      mkdirSync(host(`${bFolder}\\${name}`), { recursive: true });
      mkdirSync(`${host(swap)}-own/${name}`, { recursive: true });
    }
    // Spread over the swapper's turns: a refusal takes milliseconds (its volume's ownership is
    // known, no host lookup), so calls sent back to back could all meet one turn.
    const holdMs = 600;
    const outcomes = await whileRepointed(
      swap,
      host(bFolder),
      () =>
        inBatches(names.length, async (i) => {
          await new Promise((resolve) => setTimeout(resolve, holdMs * Math.random()));
          return call(A, "volume-v1", "MountVolume", {
            volume_id: volumeOf(A),
            target_path: `${swap}\\${names[i] ?? ""}`,
          });
        }),
      holdMs,
    );
    const codes = outcomes.map((o) => (o.status === "fulfilled" ? (o.value as Reply).code : -1));
    const details = outcomes.map((o) =>
      o.status === "fulfilled" ? (o.value as Reply).details : String(o.reason),
    );
    expect(codes, details.join("\n")).toContain(OK);
    // Every folder of B's is still an empty folder, and A's volume is mounted in A's folders only.
    for (const name of names) {
      const folder = host(`${bFolder}\\${name}`);
      expect(lstatSync(folder).isSymbolicLink(), name).toBe(false);
      expect(readdirSync(folder), name).toEqual([]);
    }
    const partition = sim
      .state()
      .partitions.find((p) => (p as { volume?: string }).volume === A.guid) as
      { accessPaths?: string[] } | undefined;
    for (const path of partition?.accessPaths ?? []) {
      expect(path.startsWith(host(plugin(B)))).toBe(false);
    }
  });
});
