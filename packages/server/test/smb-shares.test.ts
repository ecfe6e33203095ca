// Two SMB drivers granted two folders of one share (issue #33 item 3): the share's global mapping
// serves both, so RemoveSmbGlobalMapping of either folder, which removes the share root's mapping,
// would cut the other's staging. Each driver is on its own endpoint set; the calls are sent by
// test/raw-grpc.ts. A driver granted a whole share that no other rule touches still removes it.
import { mkdirSync } from "node:fs";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { demoNodeWorld as world, scenarios, Simulator, smbShareDir } from "@csi-proxy/winsim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { startOnScenario, type RunningBin } from "./harness.js";

const OK = 0;
const PERMISSION_DENIED = 7;
const kubelet = "C:\\var\\lib\\kubelet";
const credentials = { username: world.smbUser, password: world.smbPassword };
const folder = (name: string) => `${world.share}\\${name}`;
const staging = (set: string) =>
  `${kubelet}\\plugins\\kubernetes.io\\csi\\${set}.csi.example.com\\pv\\globalmount`;

const rule = (set: string, smbRemotePaths: string[]) => ({
  name: `driver-${set}`,
  callers: [{ endpointSet: set }],
  methods: ["filesystem.*", "smb.*"],
  driver: `${set}.csi.example.com`,
  smbRemotePaths,
});

describeWithPwsh(
  "a share's mapping is removed only by a caller no other shares it with",
  (pwsh) => {
    let bin: RunningBin;
    let sim: Simulator;

    beforeAll(async () => {
      const policy = {
        version: 1,
        rules: [
          rule("a", [folder("a")]),
          rule("b", [folder("b")]),
          // A share no one else is granted: the whole of it.
          rule("c", ["\\\\files.example.com\\scratch"]),
        ],
      };
      const spec = scenarios.demoNode();
      const [server] = spec.smb?.servers ?? [];
      if (server === undefined) throw new Error("the demo node has no SMB server");
      const withScratch = {
        ...spec,
        smb: {
          ...spec.smb,
          servers: [{ ...server, shares: [...(server.shares ?? []), "scratch"] }],
        },
      };
      ({ bin } = await startOnScenario(pwsh, withScratch, policy, [
        "--endpoint-set",
        "a",
        "--endpoint-set",
        "b",
        "--endpoint-set",
        "c",
      ]));
      sim = await Simulator.open(bin.ready.simulator.dir);
      for (const name of ["a", "b"]) {
        mkdirSync(join(smbShareDir(sim, "files.example.com", "projects"), name), {
          recursive: true,
        });
      }
      mkdirSync(smbShareDir(sim, "files.example.com", "scratch"), { recursive: true });
    });

    afterAll(async () => {
      expect(await bin.stop()).toBe(0);
    });

    const call = (
      set: string,
      endpoint: string,
      method: string,
      request: Record<string, unknown>,
    ) => bin.client(`${set}/${endpoint}`).call(method, request);
    const mapped = () => (sim.state().smb?.mappings ?? []).map((m) => m.remotePath.toLowerCase());

    describe("two drivers in one share", () => {
      it("neither removes the mapping the other's staging uses", async () => {
        for (const set of ["a", "b"]) {
          const reply = await call(set, "smb-v1", "NewSmbGlobalMapping", {
            remote_path: folder(set),
            local_path: staging(set),
            ...credentials,
          });
          expect(reply.code, reply.details).toBe(OK);
        }
        expect(mapped()).toContain(world.share.toLowerCase());
        for (const set of ["a", "b"]) {
          const reply = await call(set, "smb-v1", "RemoveSmbGlobalMapping", {
            remote_path: folder(set),
          });
          expect(reply.code, reply.details).toBe(PERMISSION_DENIED);
          // What another rule grants is not said.
          expect(reply.details).not.toContain(set === "a" ? "driver-b" : "driver-a");
          expect(reply.details).not.toContain(folder(set === "a" ? "b" : "a"));
        }
        // Nor by naming the share itself, which neither is granted whole.
        const whole = await call("a", "smb-v1", "RemoveSmbGlobalMapping", {
          remote_path: world.share,
        });
        expect(whole.code).toBe(PERMISSION_DENIED);
        expect(mapped()).toContain(world.share.toLowerCase());
        // B's staging still leads into its folder of the share.
        const exists = await call("b", "filesystem-v1", "PathExists", { path: staging("b") });
        expect(exists.message).toEqual({ exists: true });
      });
    });

    describe("a driver alone in its share", () => {
      it("maps and removes it", async () => {
        const share = "\\\\files.example.com\\scratch";
        const made = await call("c", "smb-v1", "NewSmbGlobalMapping", {
          remote_path: share,
          local_path: staging("c"),
          ...credentials,
        });
        expect(made.code, made.details).toBe(OK);
        const removed = await call("c", "smb-v1", "RemoveSmbGlobalMapping", { remote_path: share });
        expect(removed.code, removed.details).toBe(OK);
        expect(mapped()).not.toContain(share);
      });
    });
  },
);
