import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "../src/policy/load.js";
import { servedMethods } from "../src/server.js";
import { readmePolicy } from "./readme-policy.js";

const kubeletPath = "C:\\var\\lib\\kubelet";
const settings = { kubeletPath, workingDirs: [kubeletPath], methods: servedMethods() };
const local = { kind: "local", name: "local" } as const;

function file(value: unknown): string {
  const path = join(mkdtempSync(join(tmpdir(), "csi-policy-")), "policy.json");
  writeFileSync(path, typeof value === "string" ? value : JSON.stringify(value));
  return path;
}

const rule = { name: "r", callers: [{ local: true }], methods: ["disk.Rescan"] };

describe("loadPolicy", () => {
  it("compiles a driver's rule: its plugin folders and the pods' CSI volume folders", () => {
    const policy = loadPolicy(
      file({ version: 1, rules: [{ ...rule, driver: "smb.csi.k8s.io" }] }),
      settings,
    );
    const grants = policy.grantsFor(local);
    expect(grants?.rules).toEqual(["r"]);
    expect(grants?.paths).toHaveLength(3);
    expect(policy.warning).toBeUndefined();
  });

  it("service-account rules apply to that account only; local rules to token-less callers only", () => {
    const policy = loadPolicy(
      file({
        version: 1,
        rules: [
          {
            ...rule,
            name: "sa",
            callers: [{ serviceAccount: { namespace: "kube-system", name: "node" } }],
          },
          {
            ...rule,
            name: "ns",
            callers: [{ serviceAccount: { namespace: "storage", name: "*" } }],
          },
          { ...rule, name: "local" },
        ],
      }),
      settings,
    );
    const account = (namespace: string, serviceAccount: string) =>
      ({
        kind: "serviceAccount",
        name: `serviceaccount:${namespace}/${serviceAccount}`,
        namespace,
        serviceAccount,
      }) as const;
    expect(policy.namesServiceAccounts).toBe(true);
    expect(policy.grantsFor(account("kube-system", "node"))?.rules).toEqual(["sa"]);
    expect(policy.grantsFor(account("storage", "any"))?.rules).toEqual(["ns"]);
    expect(policy.grantsFor(account("kube-system", "other"))).toBeUndefined();
    expect(policy.grantsFor(local)?.rules).toEqual(["local"]);
  });

  it("endpoint sets: a set's rules reach token-less callers on that set only; tokens are narrowed by them", () => {
    const sets = { ...settings, endpointSets: ["smb", "iscsi"] };
    const policy = loadPolicy(
      file({
        version: 1,
        rules: [
          { ...rule, name: "smb", callers: [{ endpointSet: "smb" }] },
          { ...rule, name: "iscsi", callers: [{ endpointSet: "iscsi" }] },
          {
            ...rule,
            name: "ops-on-iscsi",
            callers: [{ serviceAccount: { namespace: "ops", name: "*" }, endpointSet: "iscsi" }],
          },
        ],
      }),
      sets,
    );
    expect(policy.warning).toBeUndefined();
    expect(policy.grantsFor(local, "smb")?.rules).toEqual(["smb"]);
    expect(policy.grantsFor(local, "iscsi")?.rules).toEqual(["iscsi"]);
    // The default set is not served here, and no rule names it.
    expect(policy.grantsFor(local)).toBeUndefined();
    const ops = {
      kind: "serviceAccount",
      name: "serviceaccount:ops/x",
      namespace: "ops",
      serviceAccount: "x",
    } as const;
    expect(policy.grantsFor(ops, "iscsi")?.rules).toEqual(["ops-on-iscsi"]);
    expect(policy.grantsFor(ops, "smb")).toBeUndefined();
    expect(policy.endpointSetGrants("smb")?.rules).toEqual(["smb"]);
    expect(policy.endpointSetGrants("default")).toBeUndefined();
  });

  it("endpoint sets: a rule naming a set not served fails the start; { local: true } with several sets warns", () => {
    const path = file({ version: 1, rules: [{ ...rule, callers: [{ endpointSet: "nfs" }] }] });
    expect(() => loadPolicy(path, { ...settings, endpointSets: ["smb"] })).toThrow(
      'rule "r" names endpoint set "nfs", which is not served',
    );
    expect(() => loadPolicy(path, settings)).toThrow("which is not served");
    const wide = file({ version: 1, rules: [rule] });
    expect(loadPolicy(wide, { ...settings, endpointSets: ["smb"] }).warning).toBeUndefined();
    expect(loadPolicy(wide, { ...settings, endpointSets: ["smb", "iscsi"] }).warning).toContain(
      'rules "r" grant token-less callers on every endpoint set',
    );
  });

  it("no rule for the caller: no grants (everything denied)", () => {
    expect(loadPolicy(file({ version: 1, rules: [] }), settings).grantsFor(local)).toBeUndefined();
  });

  it.each([
    ["not JSON", "{", "is not JSON"],
    ["a missing field", { version: 1 }, "(top level) must have required property 'rules'"],
    [
      "an unknown field",
      { version: 1, rules: [{ ...rule, pathz: [] }] },
      "must NOT have additional properties (pathz)",
    ],
    ["a wrong version", { version: 2, rules: [] }, "/version must be equal to constant"],
    [
      "a bad method name",
      { version: 1, rules: [{ ...rule, methods: ["disk"] }] },
      "/rules/0/methods/0 must match pattern",
    ],
    [
      "a method no API has",
      { version: 1, rules: [{ ...rule, methods: ["disk.Format"] }] },
      'rule "r" grants disk.Format, which no served API has',
    ],
    [
      "a relative path",
      { version: 1, rules: [{ ...rule, paths: ["var\\lib"] }] },
      "/rules/0/paths/0 must match pattern",
    ],
    [
      "a path with ..",
      { version: 1, rules: [{ ...rule, paths: ["C:\\var\\..\\x"] }] },
      "rule \"r\": The path contains a '..' segment",
    ],
    [
      "a bad portal",
      { version: 1, rules: [{ ...rule, iscsiPortals: ["10.0.0.1:99999"] }] },
      "Not a target portal",
    ],
    ["two rules of one name", { version: 1, rules: [rule, rule] }, 'two rules are named "r"'],
  ])("refuses %s, saying where", (_name, content, message) => {
    const path = file(content);
    expect(() => loadPolicy(path, settings)).toThrow(message);
    expect(() => loadPolicy(path, settings)).toThrow(`Policy ${path}:`);
  });

  it("v1-compatible: everything but paths, and a warning", () => {
    const policy = loadPolicy("v1-compatible", settings);
    expect(policy.warning).toContain("as upstream v1 allows");
    expect(policy.grantsFor(local)).toMatchObject({
      disksAny: true,
      volumes: "any",
      services: "any",
    });
  });

  it("reads YAML from a .yaml file, checked against the same schema", () => {
    const dir = mkdtempSync(join(tmpdir(), "policy-yaml-"));
    const good = join(dir, "policy.yaml");
    writeFileSync(
      good,
      [
        "version: 1",
        "rules:",
        "  - name: smb-driver",
        "    callers: [{ local: true }]",
        "    methods: [filesystem.*, smb.*]",
        "    driver: smb.csi.k8s.io",
        "    smbRemotePaths: ['\\\\files.example.com\\projects']",
        "",
      ].join("\n"),
    );
    expect(loadPolicy(good, settings).grantsFor(local)?.rules).toEqual(["smb-driver"]);
    const bad = join(dir, "bad.yml");
    writeFileSync(bad, "version: 1\nrules:\n  - name: r\n    methods: [disk.Rescan]\n");
    expect(() => loadPolicy(bad, settings)).toThrow("does not match the policy schema");
    const twice = join(dir, "twice.yaml");
    writeFileSync(twice, "version: 1\nversion: 1\nrules: []\n");
    expect(() => loadPolicy(twice, settings)).toThrow("is not YAML");
  });

  it("a missing file", () => {
    expect(() => loadPolicy("/nonexistent/policy.json", settings)).toThrow("cannot be read");
  });
});

describe("the example policies in examples/policies", () => {
  const dir = new URL("../examples/policies/", import.meta.url);
  const files = readdirSync(dir).sort();
  const specs = files.map(
    (name) =>
      JSON.parse(readFileSync(new URL(name, dir), "utf8")) as {
        rules: { name: string; callers: { endpointSet: string }[] }[];
      },
  );
  const setOf = (i: number) => specs[i]?.rules[0]?.callers[0]?.endpointSet ?? "";

  it("one per Go driver: each loads on its own endpoint set, and all of them together", () => {
    expect(files).toEqual([
      "aws-ebs.json",
      "azuredisk.json",
      "azurefile.json",
      "gce-pd.json",
      "vsphere.json",
    ]);
    for (const [i, name] of files.entries()) {
      const policy = loadPolicy(fileURLToPath(new URL(name, dir)), {
        ...settings,
        endpointSets: [setOf(i)],
      });
      expect(policy.warning).toBeUndefined();
      expect(policy.grantsFor(local, setOf(i))?.rules).toEqual([specs[i]?.rules[0]?.name]);
    }
    const all = file({ version: 1, rules: specs.flatMap((s) => s.rules) });
    const sets = files.map((_, i) => setOf(i));
    expect(loadPolicy(all, { ...settings, endpointSets: sets }).warning).toBeUndefined();
  });

  it("the README shows aws-ebs.json as it is, and names every file", () => {
    expect(readmePolicy("aws-ebs-policy")).toEqual(specs[0]);
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    for (const name of files) expect(readme).toContain(`| \`${name}\``);
  });
});
