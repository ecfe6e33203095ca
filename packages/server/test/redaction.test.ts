// Secrets that occur by chance in ordinary text (one character; a common word) must neither leak
// nor make the server rewrite what shares characters with them (issue #24 item 4): every audit
// line stays JSON with its keys, method names and paths intact, in the audit log, the status
// details, the metrics and the server's own output.
import { readFileSync } from "node:fs";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { demoNodeWorld as world, scenarios } from "@csi-proxy/winsim";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startOnScenario, type RunningBin } from "./harness.js";

const kubelet = "C:\\var\\lib\\kubelet";
const callKeys = ["time", "call", "caller", "method", "endpoint", "endpointSet", "peer"];
const keys = [...callKeys, "resources", "decision", "rules", "reason"];
// A refusal's line ends its call with the status; an allowed call ends with a line of its own.
const denyKeys = [...keys, "status", "durationMs"];
const outcomeKeys = [...callKeys, "status", "durationMs", "error"];

// A secret shorter than 8 characters is redacted only as a whole token (exec's createRedactor).
const asToken = (secret: string) =>
  new RegExp(`(?<![\\p{L}\\p{N}])${secret.replace(/[$]/g, "\\$")}(?![\\p{L}\\p{N}])`, "u");

describeWithPwsh("secrets that occur by chance are redacted, and nothing else is", (pwsh) => {
  let bin: RunningBin;
  let auditLog: string;
  const details: string[] = [];

  beforeAll(async () => {
    const policy = {
      version: 1,
      rules: [
        {
          name: "smb-driver",
          callers: [{ local: true }],
          methods: ["filesystem.*", "smb.*"],
          driver: "smb.csi.k8s.io",
          smbRemotePaths: [world.share],
        },
      ],
    };
    ({ bin, auditLog } = await startOnScenario(pwsh, scenarios.demoNode(), policy, [
      "--metrics-bind-address",
      "127.0.0.1:0",
    ]));
    const local = `${kubelet}\\plugins\\smb.csi.k8s.io\\pv-1\\globalmount`;
    await bin
      .client("filesystem-v1")
      .call("Mkdir", { path: `${kubelet}\\plugins\\smb.csi.k8s.io\\pv-1` });
    for (const password of ["p", "password"]) {
      for (const remote of [world.share, "\\\\files.example.com\\not-granted"]) {
        const reply = await bin.client("smb-v1").call("NewSmbGlobalMapping", {
          remote_path: remote,
          local_path: local,
          username: world.smbUser,
          password,
        });
        expect(reply.code, reply.details).not.toBe(0);
        details.push(reply.details);
      }
    }
  });

  afterAll(async () => {
    expect(await bin.stop()).toBe(0);
  });

  const auditLines = () => readFileSync(auditLog, "utf8").trim().split("\n");

  it("every audit line is JSON with all its keys, and names the method and endpoint as they are", () => {
    const smb = auditLines()
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((record) => String(record.method).startsWith("smb."));
    // Two allowed (then failed: a wrong password) with their outcome lines, two denied.
    expect(smb.map((record) => record.decision ?? record.status)).toEqual([
      "allow",
      "PERMISSION_DENIED",
      "deny",
      "allow",
      "PERMISSION_DENIED",
      "deny",
    ]);
    for (const record of smb) {
      const expected =
        record.decision === "allow" ? keys : record.decision === "deny" ? denyKeys : outcomeKeys;
      expect(Object.keys(record).sort()).toEqual([...expected].sort());
      expect(record.method).toBe("smb.NewSmbGlobalMapping");
      expect(record.endpoint).toBe("smb-v1");
      expect(JSON.stringify(record)).not.toContain("[REDACTED][REDACTED]");
    }
  });

  it("neither secret appears in the audit log, the details, the metrics or the server's output", async () => {
    const metrics = await (await fetch(`http://${bin.ready.metricsAddress ?? ""}/metrics`)).text();
    const smbLines = auditLines().filter((line) => line.includes('"smb.NewSmbGlobalMapping"'));
    const callOf = (line: string) => (JSON.parse(line) as { call: string }).call;
    const calls = [...new Set(smbLines.map(callOf))];
    const logged = () =>
      bin
        .stderr()
        .split("\n")
        .filter((line) => line.includes('"smb.NewSmbGlobalMapping"'));
    await expect.poll(() => logged().length).toBe(4);
    // Requests 0-1 sent "p", 2-3 "password" (Windows' own error text says "password" too: in the
    // answers to the "p" requests it stays, in those to the "password" ones it is redacted).
    const check = (text: string, request: number) => {
      if (request < 2) expect(text).not.toMatch(asToken("p"));
      else expect(text).not.toContain("password");
    };
    details.forEach(check);
    // Audit lines and the server's log lines, by the call they are of.
    for (const line of [...smbLines, ...logged()]) check(line, calls.indexOf(callOf(line)));
    expect(metrics).not.toMatch(asToken("p"));
    expect(metrics).not.toContain("password");
    expect(bin.stderr()).not.toMatch(asToken("p"));
    // The words around them are left as they were.
    expect(details.join("\n")).toContain("smbRemotePaths");
    expect(details[0]).toContain("user name or password is incorrect");
    expect(metrics).toContain('grpc_method="NewSmbGlobalMapping"');
  });
});
