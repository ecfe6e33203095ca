import { lstatSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { normalizePath } from "@csi-proxy/exec";
import { createNodeSmbLinkHost, parseRemotePath, Smb } from "@csi-proxy/smb";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { setSmbPassword, translateUncLinks } from "@csi-proxy/winsim";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { fit, hostile, withoutControl, withoutNul } from "./corpus.js";
import { outcome, useProofHost, type ProofHost } from "./proof-host.js";
import { proveValue, useStartCounter } from "./prove.js";

const runs = { numRuns: 20 };
const user = "CONTOSO\\alice";
const password = "alice-Secret-1";
const share = "\\\\fs1\\data";

describeWithPwsh("injection: every string parameter of Smb", (pwsh) => {
  const get = useProofHost(pwsh, {
    systemDisk: false,
    smb: { servers: [{ name: "fs1", accounts: { [user]: password }, shares: ["data"] }] },
  });
  const started = useStartCounter();
  let host: ProofHost;
  let smb: Smb;

  beforeAll(() => {
    host = get();
    smb = new Smb({
      shell: host.shell,
      links: translateUncLinks(host.sim, createNodeSmbLinkHost()),
      pathStyle: "posix",
    });
  });

  /** Removes the share's mapping, so the next call has to create it again. */
  async function unmap(): Promise<void> {
    expect(await outcome(smb.removeSmbGlobalMapping({ remotePath: share }))).toBe("ok");
  }

  it("remotePath: New-SmbGlobalMapping receives the share root byte-exact, or it is rejected", async () => {
    const remotes = fc.oneof(
      hostile,
      hostile.map((v) => `\\\\fs1\\${v}`),
      hostile.map((v) => `${share}\\${v}`),
    );
    await fc.assert(
      fc.asyncProperty(remotes, fc.boolean(), async (remotePath, remove) => {
        if (remove) {
          await proveValue(
            host,
            started,
            () => smb.removeSmbGlobalMapping({ remotePath }),
            undefined,
          );
          return;
        }
        const call = () => smb.newSmbGlobalMapping({ remotePath, username: user, password });
        const code = await proveValue(host, started, call, undefined);
        if (code === "INVALID_ARGUMENT") return;
        const root = parseRemotePath(remotePath).shareRoot;
        expect(
          host
            .since()
            .filter((c) => c.command === "New-SmbGlobalMapping")
            .map((c) => c.parameters.RemotePath),
        ).toContain(root);
        if (code === "ok") await unmap();
      }),
      runs,
    );
  });

  it("username: the credential carries it byte-exact, or it is rejected", async () => {
    const names = fc.oneof(hostile, hostile.map(withoutControl).map(fit(513)));
    await fc.assert(
      fc.asyncProperty(names, async (username) => {
        await unmap();
        const call = () => smb.newSmbGlobalMapping({ remotePath: share, username, password });
        const code = await proveValue(host, started, call, undefined);
        expect(code).not.toBe("ok");
        if (code === "INVALID_ARGUMENT") return;
        // Names PSCredential cannot turn into a logon ("@corp") are refused up front, so every
        // name that got this far reached the cmdlet.
        const logged = host.since().filter((c) => c.command === "New-SmbGlobalMapping");
        expect(logged.map((c) => c.parameters.Credential)).toContain(username);
      }),
      runs,
    );
  });

  it("password: only a byte-exact copy maps the share; log and state never hold it", async () => {
    // A unique tail makes the secret distinctive, so finding it in a file can only be a leak.
    const secrets = fc.tuple(hostile, fc.uuid()).map(([value, id]) => `${value}${id}`);
    try {
      await fc.assert(
        fc.asyncProperty(secrets, async (secret) => {
          setSmbPassword(host.sim, "fs1", user, secret);
          const call = () =>
            smb.newSmbGlobalMapping({ remotePath: share, username: user, password: secret });
          const code = await proveValue(host, started, call, undefined);
          // NUL would cut the password short in the SecureString, so it is refused up front.
          expect(code).toBe(secret.includes("\u0000") ? "INVALID_ARGUMENT" : "ok");
          for (const file of ["calls.jsonl", "state.json"]) {
            const text = readFileSync(join(host.sim.dir, file), "utf8");
            expect(text).not.toContain(secret.slice(-36));
          }
          if (code === "ok") await unmap();
        }),
        runs,
      );
    } finally {
      setSmbPassword(host.sim, "fs1", user, password);
    }
  });

  it("localPath: the link is made at exactly the normalised path, or it is rejected", async () => {
    // A fresh parent per value, so an earlier link is never a parent of a later path.
    const names = hostile.map(withoutNul).map(fit(120));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.tuple(fc.uuid(), names).map(([id, n]) => `${host.sim.root}/pods/${id}/${n}`),
          hostile,
        ),
        async (localPath) => {
          const call = () =>
            smb.newSmbGlobalMapping({ remotePath: share, localPath, username: user, password });
          const code = await proveValue(host, started, call, undefined);
          if (code === "INVALID_ARGUMENT") return;
          expect(code).toBe("ok");
          expect(lstatSync(normalizePath(localPath, { style: "posix" })).isSymbolicLink()).toBe(
            true,
          );
          await unmap();
        },
      ),
      runs,
    );
  });
});
