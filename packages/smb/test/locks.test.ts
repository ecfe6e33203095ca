import { describe, expect, it } from "vitest";
import { Smb } from "../src/index.js";
import { FakeSmbHost, MemoryLinkHost } from "./fakes.js";

/** A host whose calls take a few ticks, recording how many run at once per share root. */
function trackingHost() {
  const host = new FakeSmbHost();
  const active = new Map<string, number>();
  const peak = new Map<string, number>();
  let overall = 0;
  let overallPeak = 0;
  host.gate = async (_method, shareRoot) => {
    const now = (active.get(shareRoot) ?? 0) + 1;
    active.set(shareRoot, now);
    peak.set(shareRoot, Math.max(peak.get(shareRoot) ?? 0, now));
    overall += 1;
    overallPeak = Math.max(overallPeak, overall);
    await new Promise((resolve) => setTimeout(resolve, 5));
    active.set(shareRoot, (active.get(shareRoot) ?? 1) - 1);
    overall -= 1;
  };
  return { host, peak, overallPeak: () => overallPeak };
}

describe("per-share lock", () => {
  it("never overlaps calls on one share, whatever form its path takes", async () => {
    const { host, peak } = trackingHost();
    const smb = new Smb({ host, links: new MemoryLinkHost(), pathStyle: "windows" });
    const results = await Promise.all([
      smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share\\a" }),
      smb.newSmbGlobalMapping({ remotePath: "//SRV/Share/b/" }),
      smb.removeSmbGlobalMapping({ remotePath: "\\\\srv\\SHARE" }),
      smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share" }),
    ]);
    expect(peak.get("\\\\srv\\share")).toBe(1);
    // Arrival order is kept: created, reused, removed, created again.
    expect(results).toEqual([
      { mapping: "created", link: "none" },
      { mapping: "reused", link: "none" },
      { removed: true },
      { mapping: "created", link: "none" },
    ]);
    expect(host.events).toEqual([
      "ensure \\\\srv\\share",
      "create \\\\srv\\share",
      "ensure \\\\srv\\share",
      "remove \\\\srv\\share",
      "ensure \\\\srv\\share",
      "create \\\\srv\\share",
    ]);
  });

  it("runs calls on different shares in parallel", async () => {
    const { host, overallPeak } = trackingHost();
    const smb = new Smb({ host, links: new MemoryLinkHost(), pathStyle: "windows" });
    await Promise.all([
      smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\one" }),
      smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\two" }),
      smb.newSmbGlobalMapping({ remotePath: "\\\\other\\one" }),
    ]);
    expect(overallPeak()).toBe(3);
  });

  it("releases the lock after a failure", async () => {
    const { host, peak } = trackingHost();
    host.failures.set("ensureMapping", new Error("boom"));
    const smb = new Smb({ host, links: new MemoryLinkHost(), pathStyle: "windows" });
    const [first, second] = await Promise.allSettled([
      smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share" }),
      smb.newSmbGlobalMapping({ remotePath: "\\\\srv\\share" }),
    ]);
    expect(first.status).toBe("rejected");
    expect(second).toEqual({ status: "fulfilled", value: { mapping: "created", link: "none" } });
    expect(peak.get("\\\\srv\\share")).toBe(1);
  });
});
