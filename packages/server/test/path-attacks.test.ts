// An attacker's paths, sent by a client built without the server's gRPC stack (test/raw-grpc.ts):
// each must be refused before anything touches the host, the way Windows would resolve it.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { afterAll, beforeAll, expect, it } from "vitest";
import { kubeletPublishes, startBin, type RunningBin } from "./harness.js";

const INVALID_ARGUMENT = 3;
const PERMISSION_DENIED = 7;
const kubelet = "C:\\var\\lib\\kubelet";
const mine = `${kubelet}\\plugins\\org.example.iscsi`;
const pod = `${kubelet}\\pods\\p1\\volumes\\kubernetes.io~csi\\pvc-1\\mount`;

describeWithPwsh(
  "paths an attacker sends (links, 8.3 names, \\\\?\\, UNC, streams, case)",
  (pwsh) => {
    let bin: RunningBin;
    let root: string;
    let auditLog: string;
    const host = (windowsPath: string) => join(root, ...windowsPath.slice(3).split("\\"));
    const calls = () => readFileSync(join(bin.ready.simulator.dir, "calls.jsonl"), "utf8").trim();

    beforeAll(async () => {
      const dir = mkdtempSync(join(tmpdir(), "csi-attack-"));
      const rule = {
        name: "iscsi-driver",
        callers: [{ local: true }],
        methods: ["filesystem.*", "volume.MountVolume"],
        driver: "org.example.iscsi",
      };
      writeFileSync(join(dir, "policy.json"), JSON.stringify({ version: 1, rules: [rule] }));
      auditLog = join(dir, "audit.jsonl");
      bin = await startBin(pwsh, [
        "--simulate",
        "--policy",
        join(dir, "policy.json"),
        "--audit-log",
        auditLog,
      ]);
      root = bin.ready.simulator.root;
      mkdirSync(host(`${kubelet}\\plugins\\other.driver`), { recursive: true });
      // A pod made a link in its own volume that points at another driver's folder.
      kubeletPublishes(root, "p1", "pvc-1", "org.example.iscsi");
      mkdirSync(host(pod), { recursive: true });
      symlinkSync(host(`${kubelet}\\plugins\\other.driver`), host(`${pod}\\evil`), "dir");
    });

    afterAll(async () => {
      expect(await bin.stop()).toBe(0);
    });

    async function refused(
      method: string,
      request: Record<string, unknown>,
      code: number,
      created?: string,
    ) {
      writeFileSync(join(bin.ready.simulator.dir, "calls.jsonl"), "");
      const endpoint = method === "MountVolume" ? "volume-v1" : "filesystem-v1";
      const reply = await bin.client(endpoint).call(method, request);
      expect(reply.code, `${method} ${JSON.stringify(request)}: ${reply.details}`).toBe(code);
      expect(calls()).toBe("");
      if (created !== undefined) expect(existsSync(created)).toBe(false);
      return reply;
    }

    it("a link inside a granted folder does not carry a request into another driver's folder", async () => {
      const through = `${pod}\\evil\\x`;
      const reply = await refused(
        "Mkdir",
        { path: through },
        PERMISSION_DENIED,
        host(`${kubelet}\\plugins\\other.driver\\x`),
      );
      expect(reply.details).toContain("once its links are followed");
      // Where the link leads is not told to the caller.
      expect(reply.details).not.toContain("other.driver");
      await refused(
        "MountVolume",
        { volume_id: "\\\\?\\Volume{1}\\", target_path: `${pod}\\evil\\t` },
        PERMISSION_DENIED,
      );
      await refused(
        "CreateSymlink",
        { source_path: `${pod}\\evil`, target_path: `${mine}\\l` },
        PERMISSION_DENIED,
        host(`${mine}\\l`),
      );
    });

    it.each([
      [
        "another driver's folder by its 8.3 short name",
        `${kubelet}\\plugins\\OTHER~1\\x`,
        PERMISSION_DENIED,
      ],
      [
        "another driver's folder in other case",
        `C:\\VAR\\LIB\\KUBELET\\PLUGINS\\OTHER.DRIVER\\x`,
        PERMISSION_DENIED,
      ],
      [
        "another driver's folder as a \\\\?\\ long path",
        `\\\\?\\${kubelet}\\plugins\\other.driver\\x`,
        PERMISSION_DENIED,
      ],
      [
        "a look-alike of the granted name (dotless ı)",
        `${kubelet}\\plugins\\org.example.ıscsi\\x`,
        PERMISSION_DENIED,
      ],
      ["a '..' segment", `${mine}\\..\\other.driver\\x`, INVALID_ARGUMENT],
      ["a name ending in a dot (Windows drops it)", `${mine}\\x.`, INVALID_ARGUMENT],
      ["a name ending in a space (Windows drops it)", `${mine}\\x \\y`, INVALID_ARGUMENT],
      ["an alternate data stream", `${mine}\\x:evil`, INVALID_ARGUMENT],
      ["a UNC path", "\\\\attacker\\share\\x", INVALID_ARGUMENT],
      ["a \\\\?\\UNC path", "\\\\?\\UNC\\attacker\\share\\x", INVALID_ARGUMENT],
      ["a device path", "\\\\.\\C:\\var\\lib\\kubelet\\plugins\\other.driver", INVALID_ARGUMENT],
      ["a reserved device name", `${mine}\\NUL`, INVALID_ARGUMENT],
      ["the console's input device name", `${mine}\\CONIN$`, INVALID_ARGUMENT],
      ["the console's output device name", `${mine}\\conout$\\x`, INVALID_ARGUMENT],
    ])("refuses %s and runs nothing", async (_what, path, code) => {
      await refused("Mkdir", { path }, code);
    });

    it("the driver's own folder, in any case, is granted (NTFS case folding)", async () => {
      const path = `C:\\VAR\\LIB\\KUBELET\\PLUGINS\\ORG.EXAMPLE.ISCSI\\ok`;
      // The policy folds case as NTFS does; the simulated node itself is case-sensitive (README),
      // so only the policy's decision is checked here (the group, case-sensitive here, then
      // refuses the folder, which the audit log records after it).
      writeFileSync(auditLog, "");
      await bin.client("filesystem-v1").call("PathExists", { path });
      const first = readFileSync(auditLog, "utf8").trim().split("\n")[0] ?? "{}";
      expect(JSON.parse(first)).toMatchObject({
        method: "filesystem.PathExists",
        decision: "allow",
      });
    });
  },
);
