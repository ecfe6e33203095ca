// The SMB flows of the two SMB drivers that use csi-proxy v1, replayed over the wire with a
// client built without the server's code (test/raw-grpc.ts), as their sources make the calls:
// - democratic-csi (src/driver/index.js, csi_proxy_client.js; csi-proxy-v1-server.md §1.4):
//   filesystem v1 and smb v1; stage PathExists→IsSymlink→(Rmdir)→NewSmbGlobalMapping, publish
//   PathExists×2→IsSymlink→CreateSymlink, stats PathExists, unpublish PathExists→IsSymlink→Rmdir,
//   unstage RemoveSmbGlobalMapping→Rmdir.
// - kubernetes-csi/csi-driver-smb (pkg/mounter/safe_mounter_windows.go): filesystem and smb
//   v1beta1; stage PathExists→(IsMountPoint); SMBMount PathExists(parent)→(Mkdir)→
//   NewSmbGlobalMapping(local = staging), publish PathExists→LinkPath(staging→pod), unpublish
//   and unstage Rmdir(force, POD context).
// Each under a least-privilege policy and under v1-compatible, each step retried as kubelet does.
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import {
  demoNodeWorld as world,
  scenarios,
  smbShareDir,
  uncToLocal,
  Simulator,
} from "@csi-proxy/winsim";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kubeletPublishes, startOnScenario, type RunningBin } from "./harness.js";

const OK = 0;
const NOT_FOUND = 5;
const PERMISSION_DENIED = 7;
const kubelet = "C:\\var\\lib\\kubelet";
const credentials = { username: world.smbUser, password: world.smbPassword };

function leastPrivilege(driver: string) {
  return {
    version: 1,
    rules: [
      {
        name: "smb-driver",
        callers: [{ local: true }],
        methods: ["filesystem.*", "smb.*"],
        driver,
        smbRemotePaths: [world.share],
      },
    ],
  };
}

const policies = [
  ["a least-privilege policy", (driver: string) => leastPrivilege(driver)],
  ["--policy v1-compatible", () => "v1-compatible"],
] as const;

describeWithPwsh("the SMB drivers' own call sequences over the wire", (pwsh) => {
  for (const [policyName, policyOf] of policies) {
    describe(`under ${policyName}`, () => {
      let bin: RunningBin;
      const host = (path: string) => join(bin.ready.simulator.root, ...path.slice(3).split("\\"));

      beforeAll(async () => {
        // Both drivers on one server; each replay uses its own driver name and folders.
        const demo = policyOf("org.democratic-csi.smb");
        const smb = policyOf("smb.csi.k8s.io");
        const policy =
          typeof demo === "string" || typeof smb === "string"
            ? "v1-compatible"
            : { version: 1, rules: [demo.rules[0], { ...smb.rules[0], name: "csi-driver-smb" }] };
        ({ bin } = await startOnScenario(pwsh, scenarios.demoNode(), policy));
      });

      afterAll(async () => {
        expect(await bin.stop()).toBe(0);
      });

      async function call(endpoint: string, method: string, request: Record<string, unknown>) {
        const reply = await bin.client(endpoint).call(method, request);
        return reply;
      }
      async function ok(endpoint: string, method: string, request: Record<string, unknown>) {
        const reply = await call(endpoint, method, request);
        expect(reply.code, `${endpoint} ${method}: ${reply.details}`).toBe(OK);
        return reply.message ?? {};
      }
      const exists = async (endpoint: string, path: string) =>
        ((await ok(endpoint, "PathExists", { path })) as { exists: boolean }).exists;

      it("democratic-csi: stage, publish, stats, unpublish, unstage, each retried", async () => {
        const driver = "org.democratic-csi.smb";
        const staging = `${kubelet}\\plugins\\kubernetes.io\\csi\\${driver}\\h1\\globalmount`;
        // kubelet makes the staging folder before NodeStageVolume, and the pod volume folder
        // (with vol_data.json) before NodePublishVolume.
        mkdirSync(host(staging), { recursive: true });
        const pv = kubeletPublishes(bin.ready.simulator.root, "pod-d", "pv-d", driver);
        const target = `${pv}\\mount`;
        const fs = "filesystem-v1";
        const stage = async () => {
          if (await exists(fs, staging)) {
            const { is_symlink } = (await ok(fs, "IsSymlink", { path: staging })) as {
              is_symlink: boolean;
            };
            if (is_symlink) return;
            await ok(fs, "Rmdir", { path: staging });
          }
          await ok("smb-v1", "NewSmbGlobalMapping", {
            remote_path: world.share,
            local_path: staging,
            ...credentials,
          });
        };
        const publish = async () => {
          expect(await exists(fs, staging)).toBe(true);
          if (await exists(fs, target)) {
            expect(await ok(fs, "IsSymlink", { path: target })).toEqual({ is_symlink: true });
            return;
          }
          await ok(fs, "CreateSymlink", { source_path: staging, target_path: target });
        };
        const unpublish = async () => {
          if (!(await exists(fs, target))) return;
          expect(await ok(fs, "IsSymlink", { path: target })).toEqual({ is_symlink: true });
          await ok(fs, "Rmdir", { path: target });
        };
        const unstage = async () => {
          const removed = await call("smb-v1", "RemoveSmbGlobalMapping", {
            remote_path: world.share,
          });
          // democratic-csi takes upstream's text for "already removed".
          if (removed.code !== OK)
            expect(removed.details).toContain("No MSFT_SmbGlobalMapping objects found");
          const gone = await call(fs, "Rmdir", { path: staging });
          if (gone.code !== OK) {
            expect(gone.code).toBe(NOT_FOUND);
            expect(gone.details).toContain("The system cannot find the file specified");
          }
        };
        for (const step of [stage, publish]) {
          await step();
          await step();
        }
        // NodeGetVolumeStats: the published path exists (both links, to the share).
        expect(await exists(fs, target)).toBe(true);
        for (const step of [unpublish, unstage]) {
          await step();
          await step();
        }
        expect(await exists(fs, staging)).toBe(false);
      });

      it("csi-driver-smb: stage, publish, stats, unpublish, unstage, each retried", async () => {
        const driver = "smb.csi.k8s.io";
        const parent = `${kubelet}\\plugins\\kubernetes.io\\csi\\${driver}\\h2`;
        const staging = `${parent}\\globalmount`;
        const pv = kubeletPublishes(bin.ready.simulator.root, "pod-s", "pv-s", driver);
        const target = `${pv}\\mount`;
        const fs = "filesystem-v1beta1";
        const stage = async () => {
          // IsLikelyNotMountPoint: an existing link to the share is staged already.
          if (await exists(fs, staging)) {
            const { is_mount_point } = (await ok(fs, "IsMountPoint", { path: staging })) as {
              is_mount_point: boolean;
            };
            if (is_mount_point) return;
          }
          if (!(await exists(fs, parent)))
            await ok(fs, "Mkdir", { path: parent, context: "PLUGIN" });
          await ok("smb-v1beta1", "NewSmbGlobalMapping", {
            remote_path: world.share,
            local_path: staging,
            ...credentials,
          });
        };
        const publish = async () => {
          if (await exists(fs, target)) {
            const { is_mount_point } = (await ok(fs, "IsMountPoint", { path: target })) as {
              is_mount_point: boolean;
            };
            if (is_mount_point) return;
          }
          await ok(fs, "LinkPath", { source_path: staging, target_path: target });
        };
        const remove = (path: string) => async () => {
          await ok(fs, "Rmdir", { path, context: "POD", force: true });
        };
        for (const step of [stage, publish]) {
          await step();
          await step();
        }
        expect(await exists(fs, target)).toBe(true);
        for (const step of [remove(target), remove(staging)]) {
          await step();
          await step();
        }
        expect(await exists(fs, staging)).toBe(false);
        await ok("smb-v1beta1", "RemoveSmbGlobalMapping", { remote_path: world.share });
      });

      // v1-compatible grants every share through every working dir, as upstream.
      if (policyName === "--policy v1-compatible") return;
      it("refused around it: a pod's link to a share, a link to a share not granted", async () => {
        const driver = "org.democratic-csi.smb";
        const fs = "filesystem-v1";
        // A block volume's pod folder where the pod made a link to the (granted) share.
        const pv = kubeletPublishes(bin.ready.simulator.root, "pod-e", "pv-e", driver);
        mkdirSync(host(`${pv}\\mount`), { recursive: true });
        const sim = await Simulator.open(bin.ready.simulator.dir);
        mkdirSync(smbShareDir(sim, "files.example.com", "projects"), { recursive: true });
        symlinkSync(uncToLocal(sim, world.share), host(`${pv}\\mount\\evil`), "dir");
        const viaPod = await call(fs, "PathExists", { path: `${pv}\\mount\\evil\\x` });
        expect(viaPod.code, viaPod.details).toBe(PERMISSION_DENIED);
        // A staging link to another share, made out of band.
        const other = `${kubelet}\\plugins\\kubernetes.io\\csi\\${driver}\\h3\\globalmount`;
        mkdirSync(host(other).replace(/[/\\]globalmount$/, ""), { recursive: true });
        symlinkSync(uncToLocal(sim, "\\\\files.example.com\\other"), host(other), "dir");
        for (const method of ["PathExists", "Mkdir"]) {
          const reply = await call(fs, method, { path: `${other}\\x` });
          expect(reply.code, `${method}: ${reply.details}`).toBe(PERMISSION_DENIED);
        }
        const published = await call(fs, "CreateSymlink", {
          source_path: other,
          target_path: `${pv}\\elsewhere`,
        });
        expect(published.code).toBe(PERMISSION_DENIED);
      });
    });
  }
});
