import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { createPowerShellIscsiHost } from "../src/host.js";
import { Iscsi } from "../src/iscsi.js";
import { powerShellError } from "./fake-host.js";
import { FakePowerShell } from "./fake-shell.js";
import { iqn, portal, setup, targetPortal } from "./helpers.js";

const chapSecret = "Chap$ecret-0123'\"";
const mutualSecret = "Mutual$ecret-4567";
// exec's rule for parameters it redacts by name (packages/exec README, "Secrets").
const redactedByName = /password|secret|token|credential/i;

/** Everything an error exposes, as a logger or a crash report would print it. */
function shown(error: unknown): string {
  return `${inspect(error, { depth: null })}\n${JSON.stringify(error)}\n${String(error)}`;
}

async function thrown(call: Promise<unknown>): Promise<unknown> {
  try {
    await call;
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

const chapRequest = {
  targetPortal,
  iqn,
  authType: "ONE_WAY_CHAP",
  chapUsername: "node1",
  chapSecret,
} as const;

describe("CHAP secrets never appear in errors", () => {
  it("on the success path the secret reaches the host and nothing is thrown", async () => {
    const { host, iscsi } = setup();
    host.serve(portal, [{ iqn, disks: [1], chap: { username: "node1", secret: chapSecret } }]);
    await iscsi.addTargetPortal({ targetPortal });
    await expect(iscsi.connectTarget(chapRequest)).resolves.toEqual({});
    await expect(iscsi.setMutualChapSecret({ mutualChapSecret: mutualSecret })).resolves.toEqual(
      {},
    );
    expect(host.mutualSecret).toBe(mutualSecret);
    expect(host.sessions).toHaveLength(1);
  });

  it.each([
    ["authentication failure", powerShellError("HRESULT 0xefff0009,Connect-IscsiTarget")],
    [
      "a host that echoes the secret",
      powerShellError("HRESULT 0xefff0009,Connect-IscsiTarget", `bad ${chapSecret}`),
    ],
    [
      "a secret deep in the cause chain",
      new Error("outer", { cause: { detail: [`-ChapSecret ${chapSecret}`] } }),
    ],
    ["a non-Error rejection", `-ChapSecret '${chapSecret.replaceAll("'", "''")}'`],
  ])("connectTarget: %s", async (_, failure) => {
    const { host, iscsi } = setup();
    await iscsi.addTargetPortal({ targetPortal });
    host.fail("connectTarget", failure);
    const error = await thrown(iscsi.connectTarget(chapRequest));
    expect(error).toMatchObject({ code: expect.any(String) as unknown });
    expect(shown(error)).not.toContain(chapSecret);
  });

  it("keeps the code, reason and redacted message when it must drop a leaking cause", async () => {
    const { host, iscsi } = setup();
    await iscsi.addTargetPortal({ targetPortal });
    const leak = powerShellError("HRESULT 0xefff0009,Connect-IscsiTarget", `bad ${chapSecret}`);
    host.fail("connectTarget", leak);
    const error = await thrown(iscsi.connectTarget(chapRequest));
    expect(error).toMatchObject({
      code: "PERMISSION_DENIED",
      reason: "AUTHENTICATION_FAILED",
      message: "connectTarget failed: bad [REDACTED]",
    });
    expect(error).not.toHaveProperty("cause");
  });

  it("keeps the cause when it holds no secret", async () => {
    const { host, iscsi } = setup();
    await iscsi.addTargetPortal({ targetPortal });
    const clean = powerShellError("HRESULT 0xefff0009,Connect-IscsiTarget");
    host.fail("connectTarget", clean);
    expect(await thrown(iscsi.connectTarget(chapRequest))).toMatchObject({ cause: clean });
  });

  it.each([
    [{ ...chapRequest, authType: "NONE" }],
    [{ ...chapRequest, chapUsername: "" }],
    [{ ...chapRequest, authType: "BOGUS" }],
    [{ ...chapRequest, iqn: "not an iqn" }],
    [{ ...chapRequest, targetPortal: { targetAddress: "bad address" } }],
  ])("validation errors do not quote the secret (%#)", async (request) => {
    const { iscsi } = setup();
    const error = await thrown(iscsi.connectTarget(request as never));
    expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(shown(error)).not.toContain(chapSecret);
  });

  it("setMutualChapSecret: failures never show the secret", async () => {
    const { host, iscsi } = setup();
    host.fail("setMutualChapSecret", powerShellError("HRESULT 0xefff003e,Set-IscsiChapSecret"));
    host.fail("setMutualChapSecret", new Error(`Set-IscsiChapSecret -ChapSecret ${mutualSecret}`));
    for (let i = 0; i < 2; i++) {
      const error = await thrown(iscsi.setMutualChapSecret({ mutualChapSecret: mutualSecret }));
      expect(shown(error)).not.toContain(mutualSecret);
    }
    const invalid = await thrown(
      iscsi.setMutualChapSecret({ mutualChapSecret: [mutualSecret] } as never),
    );
    expect(shown(invalid)).not.toContain(mutualSecret);
  });
});

describe("the PowerShell-backed host passes secrets only as redacted parameters", () => {
  async function runBoth(shell: FakePowerShell): Promise<void> {
    shell.results.set("iscsi.connect", "connected");
    const iscsi = new Iscsi({ host: createPowerShellIscsiHost(shell) });
    await iscsi.connectTarget({ ...chapRequest, authType: "MUTUAL_CHAP" });
    await iscsi.setMutualChapSecret({ mutualChapSecret: mutualSecret });
  }

  it("never in script text; always under a parameter exec redacts", async () => {
    const shell = new FakePowerShell();
    await runBoth(shell);
    expect(shell.calls.map((c) => c.script.name)).toEqual(["iscsi.connect", "iscsi.setChapSecret"]);
    const delivered: string[] = [];
    for (const { script, params, options } of shell.calls) {
      expect(script.text).not.toContain(chapSecret);
      expect(script.text).not.toContain(mutualSecret);
      for (const [name, value] of Object.entries(params ?? {})) {
        if (value !== chapSecret && value !== mutualSecret) continue;
        delivered.push(value);
        expect(name).toMatch(redactedByName);
        expect(options?.secrets).toContain(name);
      }
    }
    expect(delivered).toEqual([chapSecret, mutualSecret]);
  });

  it("the CHAP user name is an ordinary parameter", async () => {
    const shell = new FakePowerShell();
    await runBoth(shell);
    const connect = shell.calls[0];
    expect(connect?.params).toMatchObject({ ChapUsername: "node1" });
    expect(connect?.options?.secrets).not.toContain("ChapUsername");
  });
});
