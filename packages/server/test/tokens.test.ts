import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startBin, type RunningBin } from "./harness.js";
import { signToken, tokenAudience, tokenIssuer, type TokenClaims } from "./sa-tokens.js";

const OK = 0;
const PERMISSION_DENIED = 7;
const UNAUTHENTICATED = 16;
const audience = tokenAudience;
const issuer = tokenIssuer;
const kid = "sa-key-1";

type Key = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

const token = (key: Key, claims?: TokenClaims) => signToken(key, kid, claims);

// `alg: none` with the right claims: a verifier that trusted the header would accept it.
function unsigned(): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    sub: "system:serviceaccount:kube-system:csi-node",
    aud: audience,
    iss: issuer,
    exp: now + 3600,
  };
  return `${part({ alg: "none", kid })}.${part(claims)}.`;
}

const policy = {
  version: 1,
  rules: [
    {
      name: "csi-node",
      callers: [{ serviceAccount: { namespace: "kube-system", name: "csi-node" } }],
      methods: ["disk.Rescan", "system.GetService"],
      services: ["MSiSCSI"],
    },
    { name: "local-ops", callers: [{ local: true }], methods: ["system.GetBIOSSerialNumber"] },
  ],
};

describeWithPwsh("callers identified by Kubernetes service-account tokens", (pwsh) => {
  let bin: RunningBin;
  let signing: Key;
  let forger: Key;
  let jwks: { keys: JWK[] };
  let dir: string;
  let auditLog: string;

  const calls = () => readFileSync(join(bin.ready.simulator.dir, "calls.jsonl"), "utf8").trim();
  const lastReason = () => {
    const last = readFileSync(auditLog, "utf8").trim().split("\n").at(-1) ?? "{}";
    return (JSON.parse(last) as { reason?: string }).reason ?? "";
  };
  const clearCalls = () => {
    writeFileSync(join(bin.ready.simulator.dir, "calls.jsonl"), "");
    rmSync(join(bin.ready.simulator.dir, "calls.seq"), { force: true });
  };
  const call = (endpoint: string, method: string, bearer?: string, request = {}) =>
    bin
      .client(endpoint)
      .call(
        method,
        request,
        bearer === undefined ? {} : { metadata: { authorization: `Bearer ${bearer}` } },
      );

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256", { extractable: true });
    signing = pair.privateKey;
    forger = (await generateKeyPair("RS256")).privateKey;
    jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid, alg: "RS256", use: "sig" }] };
    dir = mkdtempSync(join(tmpdir(), "csi-tokens-"));
    writeFileSync(join(dir, "jwks.json"), JSON.stringify(jwks));
    writeFileSync(join(dir, "policy.json"), JSON.stringify(policy));
    auditLog = join(dir, "audit.jsonl");
    bin = await startBin(pwsh, [
      "--simulate",
      "--policy",
      join(dir, "policy.json"),
      "--jwks-file",
      join(dir, "jwks.json"),
      "--token-audience",
      audience,
      "--token-issuer",
      issuer,
      "--audit-log",
      auditLog,
    ]);
  });

  afterAll(async () => {
    expect(await bin.stop()).toBe(0);
  });

  it("a valid token gets its service account's grants, and only those", async () => {
    const valid = await token(signing);
    expect((await call("disk-v1", "Rescan", valid)).code).toBe(OK);
    const notGranted = await call("system-v1alpha1", "GetBIOSSerialNumber", valid);
    expect(notGranted.code).toBe(PERMISSION_DENIED);
    expect(notGranted.details).toContain('no "methods" grant covers system.GetBIOSSerialNumber');
    expect(lastReason()).toContain("to caller serviceaccount:kube-system/csi-node");
  });

  it("a token-less caller is admitted only by a rule for local callers", async () => {
    expect((await call("system-v1alpha1", "GetBIOSSerialNumber")).code).toBe(OK);
    const denied = await call("disk-v1", "Rescan");
    expect(denied.code).toBe(PERMISSION_DENIED);
    expect(denied.details).toContain('no "methods" grant covers disk.Rescan');
  });

  it("another service account's valid token has no rule", async () => {
    const other = await call("disk-v1", "Rescan", await token(signing, { name: "someone-else" }));
    expect(other.code).toBe(PERMISSION_DENIED);
    expect(other.details).toBe("No policy rule admits this caller; disk.Rescan is denied.");
    expect(lastReason()).toContain(
      "has no rule for caller serviceaccount:kube-system/someone-else",
    );
  });

  it.each([
    ["forged (another key)", () => token(forger), "ERR_JWS_SIGNATURE_VERIFICATION_FAILED"],
    [
      "expired",
      () => token(signing, { exp: Math.floor(Date.now() / 1000) - 600 }),
      "ERR_JWT_EXPIRED",
    ],
    ["for another audience", () => token(signing, { aud: "kube-apiserver" }), '"aud" claim'],
    ["from another issuer", () => token(signing, { iss: "https://evil.example" }), '"iss" claim'],
    [
      "with its signature stripped",
      async () => `${(await token(signing)).split(".").slice(0, 2).join(".")}.`,
      "ERR_JWS_SIGNATURE_VERIFICATION_FAILED",
    ],
    ["unsigned (alg none)", () => Promise.resolve(unsigned()), "ERR_JOSE_ALG_NOT_ALLOWED"],
    ["not a bearer token", () => Promise.resolve(""), "not a bearer token"],
  ])("a token %s is refused as UNAUTHENTICATED, and nothing runs", async (_name, make, why) => {
    const bad = await make();
    clearCalls();
    const reply =
      bad === ""
        ? await bin
            .client("disk-v1")
            .call("Rescan", {}, { metadata: { authorization: "Basic dXNlcjpwYXNz" } })
        : await call("disk-v1", "Rescan", bad);
    expect(reply.code).toBe(UNAUTHENTICATED);
    // The caller learns nothing it could tune a forgery with; the audit log says why.
    expect(reply.details).toBe("The call's credentials were refused.");
    const last = readFileSync(auditLog, "utf8").trim().split("\n").at(-1) ?? "{}";
    expect((JSON.parse(last) as { reason?: string }).reason).toContain(why);
    expect(calls()).toBe("");
  });

  it("the audit log names the verified caller and never holds a token", async () => {
    const valid = await token(signing);
    await call("system-v1alpha1", "GetService", valid, { name: "MSiSCSI" });
    const text = readFileSync(auditLog, "utf8");
    const records = text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records).toContainEqual(
      expect.objectContaining({
        caller: "serviceaccount:kube-system/csi-node",
        method: "system.GetService",
        decision: "allow",
        rules: ["csi-node"],
      }),
    );
    expect(records).toContainEqual(
      expect.objectContaining({
        caller: "unauthenticated",
        decision: "deny",
        reason: expect.stringContaining("ERR_JWT_EXPIRED"),
      }),
    );
    expect(text).not.toContain(valid.split(".")[2]);
  });

  it("a JWKS served at a URL (loopback) verifies the same way", async () => {
    const http: Server = createServer((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.end(JSON.stringify(jwks));
    });
    await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
    const address = http.address();
    const port = typeof address === "object" && address !== null ? address.port : 0;
    const viaUrl = await startBin(pwsh, [
      "--simulate",
      "--policy",
      join(dir, "policy.json"),
      "--jwks-url",
      `http://127.0.0.1:${port}/openid/v1/jwks`,
      "--token-audience",
      audience,
    ]);
    try {
      const client = viaUrl.client("disk-v1");
      const ok = await client.call(
        "Rescan",
        {},
        { metadata: { authorization: `Bearer ${await token(signing)}` } },
      );
      expect(ok.code).toBe(OK);
      const forged = await client.call(
        "Rescan",
        {},
        { metadata: { authorization: `Bearer ${await token(forger)}` } },
      );
      expect(forged.code).toBe(UNAUTHENTICATED);
    } finally {
      expect(await viaUrl.stop()).toBe(0);
      http.close();
    }
  });

  it("a policy for service accounts without a JWKS does not start", async () => {
    const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
    const ran = await new Promise<{ code: number; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        [bin, "--simulate", "--policy", join(dir, "policy.json"), "--socket-dir", join(dir, "s")],
        { env: { ...process.env, CSI_WINSIM_PWSH: pwsh } },
        (error, _stdout, stderr) =>
          resolve({ code: error === null ? 0 : Number(error.code), stderr }),
      );
    });
    expect(ran.code).toBe(1);
    expect(ran.stderr).toContain(
      "has rules for service accounts, but no --jwks-file or --jwks-url",
    );
  });
});
