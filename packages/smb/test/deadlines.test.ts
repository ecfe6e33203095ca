import { readFileSync } from "node:fs";
import type { CallContext, Params, PowerShell, RunOptions, Script } from "@csi-proxy/exec";
import { describe, expect, it } from "vitest";
import { Smb, type LocalEntry } from "../src/index.js";
import { FakeSmbHost, MemoryLinkHost } from "./fakes.js";
import { failure } from "./sim-setup.js";
import { gate, publicMethods, type MethodCall } from "@csi-proxy/test-utils";

// Every method takes { signal?, timeoutMs? } covering its lock wait, its scripts and its link
// work (issue #11 §1). Methods are read from the prototype, so a new one is covered here too.

/** A valid request per public method; a method missing here fails the first test. */
const requests: Record<string, unknown> = {
  newSmbGlobalMapping: {
    remotePath: "\\\\srv\\share\\pv-1",
    localPath: "C:\\var\\lib\\kubelet\\pv-1",
    username: "CORP\\user",
    password: "pw-Secret-1",
  },
  removeSmbGlobalMapping: { remotePath: "\\\\srv\\share" },
  listSmbGlobalMappings: {},
};

type Call = MethodCall;

/** Methods declared `private` in the class source: on the prototype, but not API. */
const privateNames = new Set(
  [
    ...readFileSync(new URL("../src/smb.ts", import.meta.url), "utf8").matchAll(
      /^ {2}private (?:async |get |readonly )*(\w+)/gm,
    ),
  ]
    .map((match) => match[1])
    // A view of the group, not a call on the host: it takes no options.
    .concat("withLinks"),
);

function recorded() {
  const host = new FakeSmbHost();
  const links = new MemoryLinkHost();
  const smb = new Smb({ host, links, pathStyle: "windows" });
  const touched = () => [...host.events, ...links.calls];
  return { host, links, smb, touched };
}

describe("options of every method", () => {
  const methods = publicMethods(recorded().smb, privateNames).map(([name]) => name);

  it("covers every public method", () => {
    expect(methods.sort()).toEqual(Object.keys(requests).sort());
  });

  it.each(methods)("%s refuses bad options before touching the host", async (name) => {
    const bad: unknown[] = [
      { timeout: 5 },
      { signal: {} },
      { timeoutMs: 0 },
      { timeoutMs: 1.5 },
      "x",
      null,
    ];
    for (const options of bad) {
      const { smb, touched } = recorded();
      const call = publicMethods(smb, privateNames).find(([n]) => n === name)?.[1] as Call;
      expect((await failure(call(requests[name], options))).code).toBe("INVALID_ARGUMENT");
      expect(touched()).toEqual([]);
    }
  });

  it.each(methods)("%s with an aborted signal is ABORTED and calls nothing", async (name) => {
    const { smb, touched } = recorded();
    const call = publicMethods(smb, privateNames).find(([n]) => n === name)?.[1] as Call;
    const signal = AbortSignal.abort(new Error("caller gave up"));
    expect((await failure(call(requests[name], { signal }))).code).toBe("ABORTED");
    expect(touched()).toEqual([]);
  });

  it.each(methods)("%s succeeds with options that are not over", async (name) => {
    const { smb } = recorded();
    const call = publicMethods(smb, privateNames).find(([n]) => n === name)?.[1] as Call;
    const signal = new AbortController().signal;
    await expect(call(requests[name], { signal, timeoutMs: 60_000 })).resolves.toBeTypeOf("object");
  });
});

describe("waiting for the share's lock", () => {
  it("an aborted waiter is ABORTED, never reaches the host, and the holder finishes", async () => {
    const { host, links, smb } = recorded();
    const entered = gate();
    const release = gate();
    host.gate = async (method) => {
      if (method !== "ensureMapping") return;
      entered.open();
      await release.opened;
    };
    const holder = smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\locked" });
    await entered.opened;
    const controller = new AbortController();
    const waiter = smb.removeSmbGlobalMapping(
      { remotePath: "\\\\SRV\\Locked\\x" },
      { signal: controller.signal },
    );
    controller.abort();
    expect((await failure(waiter)).code).toBe("ABORTED");
    release.open();
    expect(await holder).toEqual({ mapping: "created", link: "none" });
    // Only the holder's calls: the waiter never removed the mapping it was queued to remove.
    expect(host.events).toEqual(["ensure \\\\srv\\locked", "create \\\\srv\\locked"]);
    expect(links.calls).toEqual([]);
    expect(await smb.listSmbGlobalMappings()).toMatchObject({
      mappings: [{ remotePath: "\\\\srv\\locked" }],
    });
  });

  it("a waiter whose deadline passes is TIMEOUT and leaves the queue", async () => {
    const { host, smb } = recorded();
    const entered = gate();
    const release = gate();
    host.gate = async (method) => {
      if (method !== "ensureMapping") return;
      entered.open();
      await release.opened;
    };
    const holder = smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\slow" });
    await entered.opened;
    const waiter = smb.removeSmbGlobalMapping({ remotePath: "\\\\srv\\slow" }, { timeoutMs: 20 });
    expect((await failure(waiter)).code).toBe("TIMEOUT");
    release.open();
    await holder;
    // The queue moved on without it: the next call runs at once.
    expect(await smb.removeSmbGlobalMapping({ remotePath: "\\\\srv\\slow" })).toEqual({
      removed: true,
    });
  });
});

/** A PowerShell that records each run's options and answers from `answers` after a short wait. */
class RecordingShell implements PowerShell {
  readonly mode = "session" as const;
  readonly runs: { script: string; options: RunOptions | undefined }[] = [];
  constructor(
    private readonly answers: Record<string, unknown>,
    private readonly scriptMs = 25,
  ) {}

  async run<T = unknown>(script: Script, _params?: Params, options?: RunOptions): Promise<T> {
    this.runs.push({ script: script.name, options });
    // Time passes inside a script, so the next one gets less of the deadline.
    await new Promise((resolve) => setTimeout(resolve, this.scriptMs));
    return this.answers[script.name] as T;
  }

  warmUp(): Promise<void> {
    return Promise.resolve();
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

describe("one deadline across the scripts of a method", () => {
  it("newSmbGlobalMapping gives its one script the deadline, the caller's signal and the Password secret", async () => {
    const shell = new RecordingShell({ "smb.ensureMapping": { Outcome: "Recreated" } });
    const links = new MemoryLinkHost();
    const smb = new Smb({ shell, links, pathStyle: "windows" });
    const controller = new AbortController();
    const result = await smb.newSmbGlobalMapping(
      {
        remotePath: "\\\\srv\\share\\pv",
        localPath: "C:\\pods\\pv",
        username: "CORP\\u",
        password: "pw-Secret-1",
      },
      { signal: controller.signal, timeoutMs: 60_000 },
    );
    expect(result).toEqual({ mapping: "recreated", link: "created" });
    expect(shell.runs.map((r) => r.script)).toEqual(["smb.ensureMapping"]);
    const [first] = shell.runs.map((r) => r.options?.timeoutMs ?? Infinity);
    expect(first).toBeLessThanOrEqual(60_000);
    for (const run of shell.runs) expect(run.options?.signal).toBe(controller.signal);
    expect(shell.runs[0]?.options?.secrets).toEqual(["Password"]);
  });

  it("without options the scripts run as before: no deadline, no signal", async () => {
    const shell = new RecordingShell({ "smb.listMappings": [] });
    const smb = new Smb({ shell, pathStyle: "windows" });
    expect(await smb.listSmbGlobalMappings()).toEqual({ mappings: [] });
    expect(shell.runs[0]?.options?.timeoutMs).toBeUndefined();
    expect(shell.runs[0]?.options?.signal).toBeUndefined();
  });

  it("starts no further script once the deadline has passed", async () => {
    // The fake's first script (which ignores timeoutMs) outlasts the whole deadline, which is
    // still long enough for that script to start however loaded the machine is.
    const shell = new RecordingShell(
      {
        "smb.ensureMapping": { Outcome: "Recreated" },
        "smb.removeMapping": { Removed: 0 },
      },
      1_500,
    );
    const smb = new Smb({ shell, pathStyle: "windows" });
    const error = await failure(
      smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\late" }, { timeoutMs: 1_000 }),
    );
    expect(error.code).toBe("TIMEOUT");
    // Queued behind the abandoned call on the share, so it runs once that call has stopped.
    await smb.removeSmbGlobalMapping({ remotePath: "\\\\srv\\late" });
    expect(shell.runs.map((r) => r.script)).toEqual(["smb.ensureMapping", "smb.removeMapping"]);
  });
});

/** Link operations that wait on gates, to cancel a call while one is under way. */
class GatedLinkHost extends MemoryLinkHost {
  readGate: Promise<void> | undefined;
  linkGate: Promise<void> | undefined;
  readonly linkEntered = gate();
  readonly contexts: (CallContext | undefined)[] = [];

  override async readLink(path: string, context?: CallContext): Promise<LocalEntry> {
    this.contexts.push(context);
    await this.readGate;
    return super.readLink(path);
  }

  override async createLink(path: string, target: string, context?: CallContext): Promise<void> {
    this.contexts.push(context);
    this.linkEntered.open();
    await this.linkGate;
    return super.createLink(path, target);
  }
}

describe("Node-side link work", () => {
  it("a link inspection that hangs ends at the deadline, before any mapping is made", async () => {
    const host = new FakeSmbHost();
    const links = new GatedLinkHost();
    const hung = gate();
    links.readGate = hung.opened;
    const smb = new Smb({ host, links, pathStyle: "windows" });
    const error = await failure(
      smb.newSmbGlobalMapping(
        { remotePath: "\\\\srv\\hang", localPath: "C:\\pods\\hang" },
        { timeoutMs: 20 },
      ),
    );
    expect(error.code).toBe("TIMEOUT");
    expect(links.contexts[0]?.signal.aborted).toBe(true);
    hung.open();
    // The abandoned call stops after its inspection settles: no mapping, no link.
    expect(await smb.removeSmbGlobalMapping({ remotePath: "\\\\srv\\hang" })).toEqual({
      removed: false,
    });
    expect(host.events).toEqual(["remove \\\\srv\\hang"]);
    expect(links.calls).toEqual(["read C:\\pods\\hang"]);
  });

  it("a retry after a cancel during the link waits for that link and finds it (retry-safe)", async () => {
    const host = new FakeSmbHost();
    const links = new GatedLinkHost();
    const slow = gate();
    links.linkGate = slow.opened;
    const smb = new Smb({ host, links, pathStyle: "windows" });
    const request = { remotePath: "\\\\srv\\retry\\pv", localPath: "C:\\pods\\retry" };
    const controller = new AbortController();
    const cancelled = smb.newSmbGlobalMapping(request, { signal: controller.signal });
    await links.linkEntered.opened;
    controller.abort();
    expect((await failure(cancelled)).code).toBe("ABORTED");
    const retry = smb.newSmbGlobalMapping(request);
    // The retry queues behind the link still being made; it inspects the path only after.
    await new Promise((resolve) => setImmediate(resolve));
    expect(links.calls).toEqual(["read C:\\pods\\retry"]);
    slow.open();
    expect(await retry).toEqual({ mapping: "reused", link: "existing" });
    expect(links.calls).toEqual([
      "read C:\\pods\\retry",
      "link C:\\pods\\retry -> \\\\srv\\retry\\pv\\",
      "read C:\\pods\\retry",
    ]);
    expect(links.entries.get("c:\\pods\\retry")).toEqual({
      kind: "link",
      target: "\\\\srv\\retry\\pv\\",
    });
    expect(host.events).toEqual([
      "ensure \\\\srv\\retry",
      "create \\\\srv\\retry",
      "ensure \\\\srv\\retry",
    ]);
  });
});
