// docs/windows-deployment.md's table, on a real Windows node: which container users a pipe of the
// server admits, through a named-pipe mount that shows the host pipe under upstream's name (as a
// driver's hostPath pipe volume does). Needs Docker with Windows containers (hosted runners have
// it); a missing Docker fails the test rather than skipping it.
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBin, type RunningBin } from "../test/harness.js";

const probeScript = fileURLToPath(
  new URL("../../../tools/conformance/windows/container-pipe-probe.ps1", import.meta.url),
);
const containerUser = "S-1-5-93-2-2";

function probe(hostPipe: string, user: "ContainerUser" | "ContainerAdministrator") {
  const said = execFileSync(
    "powershell.exe",
    [
      ...["-NoLogo", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass"],
      ...["-File", probeScript, "-HostPipe", hostPipe],
      ...["-ContainerPipe", "csi-proxy-filesystem-v1", "-User", user],
    ],
    { encoding: "utf8" },
  ).trim();
  return { said, ...(JSON.parse(said.split("\n").at(-1) ?? "{}") as { outcome?: string }) };
}

describe("a container's user opening the server's pipe under upstream's name", () => {
  const bins: RunningBin[] = [];

  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), "csi-srv-ctr-"));
    const policy = join(dir, "policy.json");
    writeFileSync(policy, JSON.stringify({ version: 1, rules: [] }));
    const audit = (name: string) => ["--audit-log", join(dir, `${name}.jsonl`)];
    // One set admits ContainerUser (--pipe-sid), the other has the default DACL.
    bins.push(
      await startBin(undefined, [
        ...["--policy", policy, "--endpoint-set", "admitted", "--pipe-sid", containerUser],
        ...audit("admitted"),
      ]),
    );
    bins.push(
      await startBin(undefined, ["--policy", policy, "--endpoint-set", "plain", ...audit("plain")]),
    );
  }, 120_000);

  afterAll(async () => {
    for (const bin of bins) await bin.stop();
  });

  it("ContainerUser connects where --pipe-sid admits it", () => {
    const result = probe("csi-proxy-admitted-filesystem-v1", "ContainerUser");
    expect(result.outcome, result.said).toBe("connected");
  }, 900_000);

  it("ContainerUser is refused by the default DACL", () => {
    const result = probe("csi-proxy-plain-filesystem-v1", "ContainerUser");
    expect(result.outcome, result.said).toBe("refused");
  }, 900_000);

  it("ContainerAdministrator connects through the default DACL (it holds BUILTIN\\Administrators)", () => {
    const result = probe("csi-proxy-plain-filesystem-v1", "ContainerAdministrator");
    expect(result.outcome, result.said).toBe("connected");
  }, 900_000);
});
