import type { Params, RunOptions, Script } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { Iscsi } from "../src/index.js";
import { FakePowerShell } from "./fake-shell.js";
import { failure, iqn, setup, targetPortal } from "./helpers.js";
import { badCallOptions, gate, publicMethods, type MethodCall } from "@csi-proxy/test-utils";

// Every method takes { signal?, timeoutMs? } covering its lock wait, its scripts and its
// host-name lookups (issue #11 §1). Methods are read from the prototype (`#` members are not on
// it), so a new one is covered here too.

const chapSecret = "chap-Secret-0123";

/** A valid request per public method; a method missing here fails the first test. */
const requests: Record<string, unknown> = {
  addTargetPortal: { targetPortal },
  discoverTargetPortal: { targetPortal },
  removeTargetPortal: { targetPortal },
  listTargetPortals: {},
  connectTarget: { targetPortal, iqn, authType: "NONE" },
  disconnectTarget: { targetPortal, iqn, authType: "NONE" },
  getTargetDisks: { targetPortal, iqn },
  listSessionDisks: {},
  setMutualChapSecret: { mutualChapSecret: "0123456789abcdef" },
};

type Call = MethodCall;

function method(iscsi: Iscsi, name: string): Call {
  return publicMethods(iscsi).find(([n]) => n === name)?.[1] as Call;
}

describe("options of every method", () => {
  const methods = publicMethods(setup().iscsi).map(([name]) => name);

  it("covers every public method", () => {
    expect([...methods].sort()).toEqual(Object.keys(requests).sort());
  });

  it.each(methods)("%s refuses bad options before touching the host", async (name) => {
    for (const options of badCallOptions) {
      const { host, iscsi } = setup();
      const error = await failure(method(iscsi, name)(requests[name], options));
      expect(error.code).toBe("INVALID_ARGUMENT");
      expect(host.calls).toEqual([]);
    }
  });

  it.each(methods)("%s with an aborted signal is ABORTED and calls nothing", async (name) => {
    const { host, iscsi } = setup();
    const signal = AbortSignal.abort(new Error("caller gave up"));
    expect((await failure(method(iscsi, name)(requests[name], { signal }))).code).toBe("ABORTED");
    expect(host.calls).toEqual([]);
  });

  it.each(methods)("%s passes its context to every host call", async (name) => {
    const { host, iscsi } = setup();
    await iscsi.addTargetPortal({ targetPortal });
    host.calls.length = 0;
    const seen: unknown[] = [];
    // The fake records its own arguments; read the last (context) argument off each call.
    for (const key of Object.getOwnPropertyNames(Object.getPrototypeOf(host))) {
      const fn = (host as unknown as Record<string, unknown>)[key];
      if (typeof fn !== "function" || ["constructor", "serve", "fail", "methods"].includes(key))
        continue;
      (host as unknown as Record<string, unknown>)[key] = (...args: unknown[]) => {
        seen.push(args.at(-1));
        return (fn as (...a: unknown[]) => unknown).apply(host, args);
      };
    }
    await method(iscsi, name)(requests[name], { timeoutMs: 60_000 }).catch(() => undefined);
    expect(seen.length).toBeGreaterThan(0);
    for (const context of seen) {
      expect(context).toMatchObject({ method: name, signal: expect.any(AbortSignal) });
    }
  });
});

describe("waiting for a lock", () => {
  it("an aborted waiter is ABORTED, never reaches the host, and the holder finishes", async () => {
    const { host, iscsi } = setup();
    await iscsi.addTargetPortal({ targetPortal });
    host.calls.length = 0;
    const entered = gate();
    const release = gate();
    host.hook = async (m) => {
      if (m !== "connectTarget") return;
      entered.open();
      await release.opened;
    };
    const holder = iscsi.connectTarget({ targetPortal, iqn, authType: "NONE" });
    await entered.opened;
    const controller = new AbortController();
    const waiter = iscsi.disconnectTarget(
      { targetPortal, iqn: iqn.toUpperCase() },
      { signal: controller.signal },
    );
    controller.abort();
    expect((await failure(waiter)).code).toBe("ABORTED");
    release.open();
    expect(await holder).toEqual({});
    expect(host.methods()).toEqual(["connectTarget"]);
    // The session the holder made is still there: the waiter logged nothing out.
    expect(host.sessions).toHaveLength(1);
  });

  it("a waiter on the mutual CHAP secret whose deadline passes is TIMEOUT and leaves the queue", async () => {
    const { host, iscsi } = setup();
    const entered = gate();
    const release = gate();
    host.hook = async (m) => {
      if (m !== "setMutualChapSecret" || host.calls.length > 1) return;
      entered.open();
      await release.opened;
    };
    const holder = iscsi.setMutualChapSecret({ mutualChapSecret: "first-secret-01" });
    await entered.opened;
    const waiter = iscsi.setMutualChapSecret(
      { mutualChapSecret: "second-secret-02" },
      { timeoutMs: 20 },
    );
    const error = await failure(waiter);
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).not.toContain("second-secret-02");
    release.open();
    await holder;
    expect(host.mutualSecret).toBe("first-secret-01");
    await iscsi.setMutualChapSecret({ mutualChapSecret: "third-secret-03" });
    expect(host.mutualSecret).toBe("third-secret-03");
  });
});

/** A fake PowerShell whose scripts take a little while, so a later one gets less of the deadline. */
class SlowShell extends FakePowerShell {
  override async run<T = unknown>(
    script: Script,
    params?: Params,
    options?: RunOptions,
  ): Promise<T> {
    const answer = super.run<T>(script, params, options);
    await new Promise((resolve) => setTimeout(resolve, 25));
    return answer;
  }
}

describe("one deadline across the scripts of a method", () => {
  it("disconnectTarget gives each script what is left of the deadline, with the caller's signal", async () => {
    // Another portal of the target is a host name: Node attributes, a second script logs out.
    const shell = new SlowShell();
    shell.results.set("iscsi.disconnect", {
      loggedOut: null,
      sessions: [
        {
          sessionIdentifier: "s-1",
          targetNodeAddress: iqn,
          isPersistent: true,
          connections: [{ address: "10.0.0.5", port: 3260 }],
        },
      ],
      otherPortals: [{ address: "other.example", port: 3260 }],
    });
    shell.results.set("iscsi.logout", null);
    const iscsi = new Iscsi({ shell, resolveHostName: () => Promise.resolve(["10.0.0.9"]) });
    const controller = new AbortController();
    expect(
      await iscsi.disconnectTarget(
        { targetPortal, iqn },
        { signal: controller.signal, timeoutMs: 60_000 },
      ),
    ).toEqual({ sessionsLoggedOut: 1 });
    expect(shell.calls.map((c) => c.script.name)).toEqual(["iscsi.disconnect", "iscsi.logout"]);
    const [first, second] = shell.calls.map((c) => c.options?.timeoutMs ?? Infinity);
    expect(first).toBeLessThanOrEqual(60_000);
    expect(second).toBeLessThan(first as number);
    for (const call of shell.calls) expect(call.options?.signal).toBe(controller.signal);
  });

  it("connectTarget keeps ChapSecret secret and out of the options' other fields", async () => {
    const shell = new FakePowerShell();
    shell.results.set("iscsi.connect", "connected");
    const iscsi = new Iscsi({ shell });
    const controller = new AbortController();
    await iscsi.connectTarget(
      { targetPortal, iqn, authType: "ONE_WAY_CHAP", chapUsername: "u", chapSecret },
      { signal: controller.signal, timeoutMs: 60_000 },
    );
    const options = shell.calls[0]?.options;
    expect(options?.secrets).toEqual(["ChapSecret"]);
    expect(options?.signal).toBe(controller.signal);
    expect(options?.timeoutMs).toBeLessThanOrEqual(60_000);
  });

  it("setMutualChapSecret keeps ChapSecret secret under a deadline", async () => {
    const shell = new FakePowerShell();
    const iscsi = new Iscsi({ shell });
    await iscsi.setMutualChapSecret({ mutualChapSecret: chapSecret }, { timeoutMs: 60_000 });
    expect(shell.calls[0]?.options).toMatchObject({ secrets: ["ChapSecret"] });
    expect(shell.calls[0]?.options?.timeoutMs).toBeLessThanOrEqual(60_000);
  });

  it("without options the scripts run as before: no deadline, no signal", async () => {
    const shell = new FakePowerShell();
    shell.results.set("iscsi.listPortals", []);
    const iscsi = new Iscsi({ shell });
    await iscsi.listTargetPortals();
    expect(shell.calls[0]?.options?.timeoutMs).toBeUndefined();
    expect(shell.calls[0]?.options?.signal).toBeUndefined();
  });
});

describe("host-name lookups", () => {
  const named = { targetAddress: "array.example", targetPort: 3260 };

  it("a lookup that never answers ends at the deadline as TIMEOUT, not as an unresolvable name", async () => {
    const shell = new FakePowerShell();
    const hung = gate<readonly string[]>();
    const iscsi = new Iscsi({ shell, resolveHostName: () => hung.opened });
    const error = await failure(
      iscsi.connectTarget(
        { targetPortal: named, iqn, authType: "NONE", isMultipathEnabled: true },
        { timeoutMs: 20 },
      ),
    );
    expect(error.code).toBe("TIMEOUT");
    expect(shell.calls).toEqual([]);
    hung.open(["10.0.0.5"]);
  });

  it("an abort ends a lookup that never answers, and the target's lock is free again", async () => {
    const shell = new FakePowerShell();
    shell.results.set("iscsi.disconnect", { loggedOut: 1 });
    const hung = gate<readonly string[]>();
    let lookups = 0;
    const iscsi = new Iscsi({
      shell,
      resolveHostName: () => (++lookups === 1 ? hung.opened : Promise.resolve(["10.0.0.5"])),
    });
    const controller = new AbortController();
    const cancelled = iscsi.disconnectTarget(
      { targetPortal: named, iqn },
      { signal: controller.signal },
    );
    while (lookups === 0) await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    expect((await failure(cancelled)).code).toBe("ABORTED");
    // No script ran: the abort came while the portal's name was being looked up.
    expect(shell.calls).toEqual([]);
    // The next call on the same target is not held up by the abandoned lookup.
    expect(await iscsi.disconnectTarget({ targetPortal: named, iqn })).toEqual({
      sessionsLoggedOut: 1,
    });
    expect(shell.calls.map((c) => c.script.name)).toEqual(["iscsi.disconnect"]);
    expect(shell.calls[0]?.params).toMatchObject({ TargetPortalAddresses: ["10.0.0.5"] });
  });
});
