// A restage storm (issue #24 item 6): after a node reboot kubelet calls NodeStageVolume for every
// volume at once. Half the sequences are democratic-csi's iSCSI NodeStage, half csi-driver-smb's
// SMB NodeStage, each on its own volume, each driver on its own endpoint set under a
// least-privilege policy, sent by a grpc-js client built as democratic-csi builds one (rpc.ts)
// through csi-proxy-server on the simulated node. The test (test/storm.test.ts) checks that every
// sequence succeeds once with its own answers; the bench times it against the same run serially.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoNodeWorld as world, scenarios, type ScenarioSpec } from "@csi-proxy/winsim";
import { V1Client, type Reply } from "./rpc.js";
import { startServerBin, type StartedBin } from "./server-bin.js";

/** Volumes of each kind: 16 iSCSI and 16 SMB, 32 NodeStage sequences. */
export const stormVolumesPerKind = 16;

const OK = 0;
const kubelet = "C:\\var\\lib\\kubelet";
const fileServer = "files.example.com";
const portal = { target_address: world.portal.targetAddress, target_port: "3260" };
const chap = {
  auth_type: "ONE_WAY_CHAP",
  chap_username: world.chap.username,
  chap_secret: world.chap.secret,
};
const drivers = { iscsi: "org.democratic-csi.iscsi", smb: "smb.csi.k8s.io" } as const;
/** The two drivers of the storm. */
export type Kind = keyof typeof drivers;

const pad = (i: number) => String(i).padStart(2, "0");
/** The IQN of the i-th iSCSI volume's target. */
export const stormIqn = (i: number) => `iqn.2003-01.org.example.array1:storm-${pad(i)}`;
/** The i-th SMB volume's share. */
export const stormShare = (i: number) => `\\\\${fileServer}\\storm-${pad(i)}`;
/** The share's name alone. */
export const stormShareName = (i: number) => `storm-${pad(i)}`;
/** Where kubelet asks the i-th volume of a kind to be staged. */
export const stormStaging = (kind: Kind, i: number) =>
  `${kubelet}\\plugins\\kubernetes.io\\csi\\${drivers[kind]}\\pv-${kind}-${pad(i)}\\globalmount`;

/**
 * The demo node with one target per iSCSI volume (one LUN each) and one share per SMB volume;
 * `cimLatencyMs`: the simulated CIM round trip (docs/design/winsim.md).
 */
export function stormScenario(perKind = stormVolumesPerKind, cimLatencyMs = 0): ScenarioSpec {
  const range = Array.from({ length: perKind }, (_, i) => i);
  const demo = scenarios.demoNode();
  return {
    ...demo,
    ...(cimLatencyMs === 0 ? {} : { cimLatencyMs }),
    iscsi: {
      servers: [
        {
          address: world.portal.targetAddress,
          targets: range.map((i) => ({
            iqn: stormIqn(i),
            chap: { username: world.chap.username, secret: world.chap.secret },
            luns: [
              {
                size: 2 * 1024 ** 3,
                busType: "iSCSI",
                page83: { naa: `6001405a1b2c3d4e5f60718293a400${i.toString(16).padStart(2, "0")}` },
              },
            ],
          })),
        },
      ],
    },
    smb: {
      servers: [
        {
          name: fileServer,
          accounts: { [world.smbUser]: world.smbPassword },
          shares: range.map(stormShareName),
        },
      ],
    },
  };
}

/** Each driver's grants: its own volumes only, as a least-privilege deployment writes them. */
export function stormPolicy(perKind = stormVolumesPerKind): object {
  const range = Array.from({ length: perKind }, (_, i) => i);
  return {
    version: 1,
    rules: [
      {
        name: "iscsi-driver",
        callers: [{ endpointSet: "iscsi" }],
        methods: ["filesystem.*", "volume.*", "disk.*", "iscsi.*", "system.StartService"],
        driver: drivers.iscsi,
        iscsiPortals: [world.portal.targetAddress],
        iscsiTargets: ["iqn.2003-01.org.example.array1:storm-*"],
        disks: { ofIscsiTargets: true },
        services: ["MSiSCSI"],
      },
      {
        name: "smb-driver",
        callers: [{ endpointSet: "smb" }],
        methods: ["filesystem.*", "smb.*"],
        driver: drivers.smb,
        smbRemotePaths: range.map(stormShare),
      },
    ],
  };
}

/** Where the storm's sequences send their calls: the server over gRPC, or the library. */
export interface StormHost {
  /** The simulated node's state folder and its drive C:. */
  readonly simulator: { readonly dir: string; readonly root: string };
  /** The calls the sequences have made so far. */
  sent(): number;
  /** One v1 RPC of a driver of `kind` (`group`, `version`, `method`, the request as on the wire). */
  call(kind: Kind, group: string, version: string, method: string, request: object): Promise<Reply>;
  /** Ends what the host started and removes its folder. */
  close(): Promise<void>;
}

/** A running server on a storm node, with a client per endpoint. */
export interface StormNode extends StormHost {
  readonly bin: StartedBin;
  readonly auditLog: string;
  /** The client of `<set>/<group>-<version>`, made once. */
  client(kind: Kind, group: string, version: string): V1Client;
}

/** Starts csi-proxy-server on a fresh storm node, one endpoint set per driver. */
export async function startStormNode(
  pwsh: string,
  perKind = stormVolumesPerKind,
  cimLatencyMs = 0,
): Promise<StormNode> {
  const dir = mkdtempSync(join(tmpdir(), "bench-storm-"));
  writeFileSync(join(dir, "scenario.json"), JSON.stringify(stormScenario(perKind, cimLatencyMs)));
  writeFileSync(join(dir, "policy.json"), JSON.stringify(stormPolicy(perKind)));
  const auditLog = join(dir, "audit.jsonl");
  const bin = await startServerBin(pwsh, [
    "--simulate-scenario",
    join(dir, "scenario.json"),
    "--policy",
    join(dir, "policy.json"),
    "--endpoint-set",
    "iscsi",
    "--endpoint-set",
    "smb",
    "--socket-dir",
    join(dir, "s"),
    "--audit-log",
    auditLog,
  ]);
  const clients = new Map<string, V1Client>();
  const client = (kind: Kind, group: string, version: string) => {
    const key = `${kind}/${group}-${version}`;
    const made = clients.get(key);
    if (made !== undefined) return made;
    const socket = bin.endpoints[key];
    if (socket === undefined) throw new Error(`no endpoint ${key}`);
    const fresh = new V1Client(socket, group, version);
    clients.set(key, fresh);
    return fresh;
  };
  return {
    bin,
    auditLog,
    simulator: bin.simulator,
    sent: () => [...clients.values()].reduce((sum, c) => sum + c.sent, 0),
    client,
    call: (kind, group, version, method, request) =>
      client(kind, group, version).call(method, request),
    async close() {
      for (const client of clients.values()) client.close();
      await bin.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A sequence's step that did not answer as the driver needs: which, and what came back. */
export class StormStepError extends Error {
  constructor(
    readonly sequence: string,
    readonly method: string,
    readonly reply: Reply,
  ) {
    super(`${sequence}: ${method} answered ${reply.code}: ${reply.details}`);
    this.name = "StormStepError";
  }
}

/** What one NodeStage ended with, as the driver saw it. */
export interface Staged {
  readonly kind: Kind;
  readonly index: number;
  readonly staging: string;
  /** iSCSI: the disk GetTargetDisks named and the volume mounted from it. */
  readonly diskNumber?: number;
  readonly volumeId?: string;
}

type Step = (method: string, request?: object, accept?: string) => Promise<Record<string, unknown>>;

function stepper(
  node: StormHost,
  kind: Kind,
  group: string,
  version: string,
  sequence: string,
): Step {
  // `accept`: a details substring the driver takes as success (its error-text contract, §1.4).
  return async (method, request = {}, accept) => {
    const reply = await node.call(kind, group, version, method, request);
    if (reply.code === OK) return reply.message;
    if (accept !== undefined && reply.details.includes(accept)) return {};
    throw new StormStepError(sequence, method, reply);
  };
}

/**
 * democratic-csi's NodeStage of an iSCSI volume (csi-proxy-v1-server.md §1.4): AddTargetPortal,
 * ConnectTarget, Rescan, GetTargetDisks, ListVolumesOnDisk, (PartitionDisk), IsVolumeFormatted,
 * (FormatVolume), PathExists, (Mkdir), MountVolume. The LUN arrives offline under the default
 * SAN policy (winsim iscsi-lun.ts), so the disk is brought online before it is partitioned.
 */
async function stageIscsi(node: StormHost, i: number): Promise<Staged> {
  const name = `iscsi #${i}`;
  const iscsi = stepper(node, "iscsi", "iscsi", "v1alpha2", name);
  const disk = stepper(node, "iscsi", "disk", "v1", name);
  const volume = stepper(node, "iscsi", "volume", "v1", name);
  const fs = stepper(node, "iscsi", "filesystem", "v1", name);
  const target = { target_portal: portal, iqn: stormIqn(i) };
  await iscsi("AddTargetPortal", { target_portal: portal });
  await iscsi(
    "ConnectTarget",
    { ...target, ...chap },
    "The target has already been logged in via an iSCSI session",
  );
  await disk("Rescan");
  const { diskIDs } = (await iscsi("GetTargetDisks", target)) as { diskIDs: string[] };
  if (diskIDs.length !== 1)
    throw new Error(`${name}: GetTargetDisks named ${diskIDs.length} disks: ${diskIDs.join(", ")}`);
  // democratic-csi passes the string it got as disk_number.
  const diskNumber = Number(diskIDs[0]);
  const { is_online } = (await disk("GetDiskState", { disk_number: diskNumber })) as {
    is_online: boolean;
  };
  if (!is_online) await disk("SetDiskState", { disk_number: diskNumber, is_online: true });
  const listVolumes = async () =>
    ((await volume("ListVolumesOnDisk", { disk_number: diskNumber })) as { volume_ids: string[] })
      .volume_ids;
  let volumes = await listVolumes();
  if (volumes.length === 0) {
    await disk("PartitionDisk", { disk_number: diskNumber });
    volumes = await listVolumes();
  }
  const [volumeId] = volumes;
  if (volumes.length !== 1 || volumeId === undefined)
    throw new Error(`${name}: disk ${diskNumber} holds ${volumes.length} volumes`);
  const { formatted } = (await volume("IsVolumeFormatted", { volume_id: volumeId })) as {
    formatted: boolean;
  };
  if (!formatted) await volume("FormatVolume", { volume_id: volumeId });
  const staging = stormStaging("iscsi", i);
  const { exists } = (await fs("PathExists", { path: staging })) as { exists: boolean };
  if (!exists) await fs("Mkdir", { path: staging });
  await volume(
    "MountVolume",
    { volume_id: volumeId, target_path: staging },
    "The requested access path is already in use",
  );
  return { kind: "iscsi", index: i, staging, diskNumber, volumeId };
}

/**
 * csi-driver-smb's NodeStage (pkg/mounter/safe_mounter_windows.go, filesystem and smb v1beta1):
 * PathExists, (IsMountPoint), PathExists of the parent, (Mkdir), NewSmbGlobalMapping with the
 * staging path as its local path.
 */
async function stageSmb(node: StormHost, i: number): Promise<Staged> {
  const name = `smb #${i}`;
  const fs = stepper(node, "smb", "filesystem", "v1beta1", name);
  const smb = stepper(node, "smb", "smb", "v1beta1", name);
  const staging = stormStaging("smb", i);
  const parent = staging.slice(0, staging.lastIndexOf("\\"));
  const exists = async (path: string) =>
    ((await fs("PathExists", { path })) as { exists: boolean }).exists;
  if (await exists(staging)) {
    const { is_mount_point } = (await fs("IsMountPoint", { path: staging })) as {
      is_mount_point: boolean;
    };
    if (is_mount_point) return { kind: "smb", index: i, staging };
  }
  if (!(await exists(parent))) await fs("Mkdir", { path: parent, context: "PLUGIN" });
  await smb("NewSmbGlobalMapping", {
    remote_path: stormShare(i),
    local_path: staging,
    username: world.smbUser,
    password: world.smbPassword,
  });
  return { kind: "smb", index: i, staging };
}

/** How a storm ran: its wall time and what every sequence ended with. */
export interface StormRun {
  readonly wallMs: number;
  readonly staged: readonly Staged[];
}

/**
 * Stages every volume of the node, iSCSI and SMB interleaved: all at once (`concurrent`), as
 * kubelet does after a reboot, or one after another. MSiSCSI is started first, as the node's
 * service configuration would have it running after the reboot. Any failed sequence rejects the
 * run with all of them (an AggregateError of StormStepErrors).
 */
export async function restageStorm(
  node: StormHost,
  { concurrent, perKind = stormVolumesPerKind }: { concurrent: boolean; perKind?: number },
): Promise<StormRun> {
  await stepper(
    node,
    "iscsi",
    "system",
    "v1alpha1",
    "setup",
  )("StartService", {
    name: "MSiSCSI",
  });
  const sequences = Array.from({ length: perKind }, (_, i) => [
    () => stageIscsi(node, i),
    () => stageSmb(node, i),
  ]).flat();
  const started = performance.now();
  const results: PromiseSettledResult<Staged>[] = [];
  if (concurrent) results.push(...(await Promise.allSettled(sequences.map((run) => run()))));
  else
    for (const run of sequences)
      results.push(
        await run().then(
          (value) => ({ status: "fulfilled", value }) as const,
          (reason: unknown) => ({ status: "rejected", reason }) as const,
        ),
      );
  const wallMs = performance.now() - started;
  const failed = results.flatMap((r) => (r.status === "rejected" ? [r.reason as Error] : []));
  if (failed.length > 0)
    throw new AggregateError(
      failed,
      `${failed.length} of ${sequences.length} NodeStage sequences failed`,
    );
  return { wallMs, staged: results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : [])) };
}
