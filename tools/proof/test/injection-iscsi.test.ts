import { Iscsi, type AuthenticationType } from "@csi-proxy/iscsi";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import fc from "fast-check";
import { beforeAll, expect, it } from "vitest";
import { chapSecrets, hostile, withoutNul } from "./corpus.js";
import { outcome, useProofHost, type ProofHost } from "./proof-host.js";
import { proveValue, useStartCounter } from "./prove.js";

const runs = { numRuns: 20 };
const address = "10.0.0.5";
const targetPortal = { targetAddress: address, targetPort: 3260 };
const iqn = "iqn.2003-01.org.linux-iscsi.array:chap";
const chapUsername = "someuser";
// NUL is rejected by design; the rest of the corpus must arrive intact.
const accepted = hostile.map(withoutNul);

describeWithPwsh("injection: every string parameter of Iscsi", (pwsh) => {
  const get = useProofHost(pwsh, {
    iscsi: {
      servers: [
        {
          address,
          targets: [{ iqn, chap: { username: chapUsername, secret: "twelve-bytes" }, luns: [] }],
        },
      ],
      portals: [{ address }],
    },
  });
  const started = useStartCounter();
  let host: ProofHost;
  let iscsi: Iscsi;

  beforeAll(() => {
    host = get();
    iscsi = new Iscsi({ shell: host.shell });
  });

  /** Makes the target's CHAP secret `secret`, so only a byte-exact copy of it logs in. */
  function targetSecret(secret: string): void {
    host.sim.update((state) => {
      const target = state.iscsi?.servers[0]?.targets[0];
      if (target !== undefined) target.chapSecret = secret;
    });
  }

  it("targetAddress and iqn: every method rejects hostile values before anything starts", async () => {
    const calls: ((value: string) => Promise<unknown>)[] = [
      (v) => iscsi.addTargetPortal({ targetPortal: { targetAddress: v } }),
      (v) => iscsi.discoverTargetPortal({ targetPortal: { targetAddress: v } }),
      (v) => iscsi.removeTargetPortal({ targetPortal: { targetAddress: v } }),
      (v) => iscsi.connectTarget({ targetPortal: { targetAddress: v }, iqn, authType: "NONE" }),
      (v) => iscsi.connectTarget({ targetPortal, iqn: v, authType: "NONE" }),
      (v) => iscsi.disconnectTarget({ targetPortal: { targetAddress: v }, iqn }),
      (v) => iscsi.disconnectTarget({ targetPortal, iqn: v }),
      (v) => iscsi.getTargetDisks({ targetPortal: { targetAddress: v }, iqn }),
      (v) => iscsi.getTargetDisks({ targetPortal, iqn: v }),
    ];
    await fc.assert(
      // A plain name such as "A" is a valid host name, not a hostile value: it may reach the host.
      fc.asyncProperty(
        hostile.filter((v) => !/^[A-Za-z0-9.-]*$/.test(v)),
        fc.constantFrom(...calls),
        async (value, call) => {
          expect(await proveValue(host, started, () => call(value), undefined)).toBe(
            "INVALID_ARGUMENT",
          );
        },
      ),
      runs,
    );
  });

  it("chapUsername: Connect-IscsiTarget receives it byte-exact", async () => {
    targetSecret("twelve-bytes");
    const authTypes: AuthenticationType[] = ["ONE_WAY_CHAP", "MUTUAL_CHAP"];
    await fc.assert(
      fc.asyncProperty(accepted, fc.constantFrom(...authTypes), async (name, authType) => {
        const code = await proveValue(
          host,
          started,
          () =>
            iscsi.connectTarget({
              targetPortal,
              iqn,
              authType,
              chapUsername: name,
              chapSecret: "twelve-bytes",
            }),
          { command: "Connect-IscsiTarget", parameter: "ChapUsername", value: name },
        );
        expect(code).not.toBe("ok");
      }),
      runs,
    );
  });

  it("chapSecret: only a byte-exact copy logs in, and the log never holds it", async () => {
    await fc.assert(
      fc.asyncProperty(chapSecrets, async (secret) => {
        targetSecret(secret);
        const login = () =>
          iscsi.connectTarget({
            targetPortal,
            iqn,
            authType: "ONE_WAY_CHAP",
            chapUsername,
            chapSecret: secret,
          });
        expect(await proveValue(host, started, login, undefined)).toBe("ok");
        expect(JSON.stringify(host.since())).not.toContain(JSON.stringify(secret).slice(1, -1));
        expect(await outcome(iscsi.disconnectTarget({ targetPortal, iqn }))).toBe("ok");
      }),
      runs,
    );
  });

  it("mutualChapSecret: Set-IscsiChapSecret stores it byte-exact", async () => {
    await fc.assert(
      fc.asyncProperty(chapSecrets, async (secret) => {
        const code = await proveValue(
          host,
          started,
          () => iscsi.setMutualChapSecret({ mutualChapSecret: secret }),
          undefined,
        );
        expect(code).toBe("ok");
        expect(host.sim.state().iscsi?.initiator.mutualChapSecret).toBe(secret);
      }),
      runs,
    );
  });
});
