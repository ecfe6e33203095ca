// The Windows deployment example (examples/windows, docs/windows-deployment.md) is what the
// server accepts: its command line parses as on Windows, its policy is the README's (plus the EBS
// driver's rule) and loads with the sets it serves, and each driver mounts only its own set's
// pipes, at upstream's names. Every document matches the Kubernetes API schema, and what an
// operator needs (tolerations, priority, resources, probes, service accounts) is checked field
// by field. Nothing here ran on Windows or a cluster: it checks the manifests against the server
// and the API's schema, not against a node.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseAllDocuments } from "yaml";
import { parseCommand } from "../src/args.js";
import { endpointName, servedApis } from "../src/endpoints.js";
import { pipeSddl } from "../src/pipes/sddl.js";
import { loadPolicy } from "../src/policy/load.js";
import { defaultKubeletPath, servedMethods } from "../src/server.js";
import { strictSchemaErrors, validatorErrors } from "./k8s-schema.js";
import { readmePolicy } from "./readme-policy.js";

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function manifests(file: string): Doc[] {
  const text = readFileSync(new URL(`../examples/windows/${file}`, import.meta.url), "utf8");
  return parseAllDocuments(text).map((d) => d.toJS() as Doc);
}

const files = ["csi-proxy-server.yaml", "driver-node.yaml", "aws-ebs-node.yaml"];
const proxyDocs = manifests("csi-proxy-server.yaml");
const driverDocs = [...manifests("driver-node.yaml"), ...manifests("aws-ebs-node.yaml")];
// The drivers that read kubelet's folder themselves, and so mount it: csi-driver-smb (os.Lstat
// for stats, os.Readlink before removing a mapping) and aws-ebs (GetDiskFreeSpaceEx for stats).
const readsKubeletFolder = ["smb.csi.k8s.io", "ebs.csi.aws.com"];
const pipePrefix = "\\\\.\\pipe\\";
// moby's pkg/system: the virtual accounts of process-isolated containers.
const containerUserSids: Record<string, string> = {
  ContainerAdministrator: "S-1-5-93-2-1",
  ContainerUser: "S-1-5-93-2-2",
};

const proxy = proxyDocs.find((d) => d.kind === "DaemonSet") as Doc;
const server = proxy.spec.template.spec.containers[0] as Doc;
// hcsshim expands it in a HostProcess container's command line; any root will do here.
const sandbox = "C:\\hpc\\1234";
const expand = (s: string) => s.replaceAll("%CONTAINER_SANDBOX_MOUNT_POINT%", sandbox);
const command = parseCommand((server.args as string[]).map(expand), "win32");
if (command.help || command.version === true) throw new Error("the example asks for no server");
const served = command.options.endpointSets ?? [];

const configMap = proxyDocs.find((d) => d.kind === "ConfigMap") as Doc;
const examplePolicy = JSON.parse(configMap.data["policy.json"] as string) as {
  rules: { callers: { endpointSet?: string }[]; driver?: string; disks?: unknown }[];
};

describe("examples/windows: the Kubernetes API schema", () => {
  const docs = files.flatMap((file) => manifests(file));

  it("every document passes kubernetes-models' validators", () => {
    expect(docs.map((d) => String(d.kind))).toContain("DaemonSet");
    expect(validatorErrors(docs)).toEqual([]);
  });

  it("every field is one the API has, where the API has it (strict, as kubectl --validate=strict)", () => {
    expect(strictSchemaErrors(docs)).toEqual([]);
  });

  it("the strict check catches what the validators let through: a misspelt or misplaced field", () => {
    const typo = structuredClone(proxy);
    typo.spec.template.spec.priorityClasName = "system-node-critical";
    const misplaced = structuredClone(proxy);
    misplaced.spec.template.spec.containers[0].tolerations = [{ operator: "Exists" }];
    expect(validatorErrors([typo, misplaced])).toEqual([]);
    const errors = strictSchemaErrors([typo, misplaced]);
    expect(errors.join("\n")).toMatch(/priorityClasName/);
    expect(errors.join("\n")).toMatch(/tolerations/);
  });
});

/** The pod's containers by name. */
function containers(pod: Doc): Record<string, Doc> {
  return Object.fromEntries((pod.containers as Doc[]).map((c) => [c.name as string, c]));
}

/** Every container asks for CPU and memory and is held to a memory limit. */
function expectResources(pod: Doc): void {
  for (const [name, c] of Object.entries(containers(pod))) {
    expect(c.resources?.requests?.cpu, name).toMatch(/^\d+m$/);
    expect(c.resources?.requests?.memory, name).toMatch(/^\d+Mi$/);
    expect(c.resources?.limits?.memory, name).toMatch(/^\d+[MG]i$/);
  }
}

/** The pod runs under a ServiceAccount defined beside it, or mounts no token at all. */
function expectAccount(pod: Doc, namespace: string, docs: Doc[]): void {
  if (pod.automountServiceAccountToken === false && pod.serviceAccountName === undefined) return;
  const account = docs.find(
    (d) =>
      d.kind === "ServiceAccount" &&
      d.metadata.name === pod.serviceAccountName &&
      d.metadata.namespace === namespace,
  );
  expect(account, String(pod.serviceAccountName)).toBeDefined();
}

describe("examples/windows/csi-proxy-server.yaml", () => {
  const pod = proxy.spec.template.spec as Doc;

  it("runs the server as SYSTEM in a HostProcess pod, where its pipes are the host's", () => {
    expect(pod.hostNetwork).toBe(true);
    expect(pod.securityContext.windowsOptions).toEqual({
      hostProcess: true,
      runAsUserName: "NT AUTHORITY\\SYSTEM",
    });
    // The image's executable (packages/server/Dockerfile), under the sandbox mount point.
    expect(server.command).toEqual([
      "%CONTAINER_SANDBOX_MOUNT_POINT%\\csi-proxy-server\\csi-proxy-server.exe",
    ]);
    expect(server.image).toMatch(/^ghcr\.io\/csi-proxy-ts\/csi-proxy-server:\d+\.\d+\.\d+$/);
  });

  it("runs on every node a driver can, is evicted last, and reads nothing from the API server", () => {
    expect(pod.tolerations).toEqual([{ operator: "Exists" }]);
    expect(pod.priorityClassName).toBe("system-node-critical");
    expect(pod.automountServiceAccountToken).toBe(false);
    expectAccount(pod, proxy.metadata.namespace as string, proxyDocs);
    const account = proxyDocs.find((d) => d.kind === "ServiceAccount") as Doc;
    expect(account.automountServiceAccountToken).toBe(false);
    expectResources(pod);
  });

  it("probes /healthz and /readyz where --metrics-bind-address serves them", () => {
    const address = command.options.metricsBindAddress ?? "";
    const [host, port] = address.split(":");
    expect(host).toBe("127.0.0.1");
    for (const [probe, path] of [
      ["livenessProbe", "/healthz"],
      ["readinessProbe", "/readyz"],
    ] as const)
      expect(server[probe].httpGet, probe).toEqual({ host, port: Number(port), path });
  });

  it("serves one set per driver and admits ContainerUser to the pipes, nothing wider", () => {
    expect(served).toEqual(["iscsi", "smb", "ebs"]);
    const sids = command.options.namedPipes?.sids ?? [];
    expect(sids).toEqual([containerUserSids.ContainerUser]);
    expect(pipeSddl(sids)).toBe("D:P(A;;GA;;;SY)(A;;GA;;;BA)(A;;GRGW;;;S-1-5-93-2-2)");
  });

  it("loads the README's endpoint-sets policy, plus the EBS driver's rule, from the mounted ConfigMap", () => {
    const readme = readmePolicy("endpoint-sets-policy") as { rules: unknown[] };
    expect(examplePolicy.rules.slice(0, -1)).toEqual(readme.rules);
    // EBS volumes show no page-83 pattern to grant by, and the root volume is EBS too: the
    // EBS set gets every disk (docs/windows-deployment.md), and no other rule does.
    expect(examplePolicy.rules.at(-1)).toMatchObject({
      callers: [{ endpointSet: "ebs" }],
      driver: "ebs.csi.aws.com",
      disks: "*",
    });
    const mount = (server.volumeMounts as Doc[]).find((m) => m.name === "policy") as Doc;
    const volume = (proxy.spec.template.spec.volumes as Doc[]).find((v) => v.name === "policy");
    expect(volume?.configMap.name).toBe(configMap.metadata.name);
    // hcsshim gives a HostProcess container its volumes under the sandbox mount point too.
    expect(command.options.policy).toBe(
      `${sandbox}${String(mount.mountPath).slice(2)}\\policy.json`,
    );
    const file = join(mkdtempSync(join(tmpdir(), "csi-example-")), "policy.json");
    writeFileSync(file, configMap.data["policy.json"] as string);
    const policy = loadPolicy(file, {
      kubeletPath: defaultKubeletPath,
      workingDirs: [defaultKubeletPath],
      methods: servedMethods(),
      endpointSets: served,
    });
    expect(policy.warning).toBeUndefined();
  });
});

const drivers = driverDocs.filter((d) => d.kind === "DaemonSet");

describe("examples/windows/driver-node.yaml and aws-ebs-node.yaml", () => {
  it("has every driver of the policy", () => {
    expect(drivers).toHaveLength(3);
  });

  it("is what the README's pipe mount shows", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const block = /<!-- windows-pipe-mount -->\s*```yaml\n([\s\S]*?)\n```/.exec(readme)?.[1];
    const shown = parseAllDocuments(block ?? "")[0]?.toJS() as Doc;
    const smb = drivers.find((d) => d.metadata.namespace === "csi-smb")?.spec.template.spec as Doc;
    const driver = (smb.containers as Doc[]).find((c) => c.name === "driver") as Doc;
    expect(smb.volumes).toContainEqual(shown.volumes[0]);
    expect(driver.volumeMounts).toContainEqual(shown.volumeMounts[0]);
  });

  for (const ds of drivers) {
    const pod = ds.spec.template.spec as Doc;
    const volumes = pod.volumes as Doc[];
    const pipes = volumes.filter((v) => String(v.hostPath?.path).startsWith(pipePrefix));
    const pluginDir = volumes.find((v) => v.name === "plugin-dir")?.hostPath.path as string;
    const driver = pluginDir.replace(`${defaultKubeletPath}\\plugins\\`, "");

    describe(ds.metadata.name as string, () => {
      it("is an ordinary container whose user the server's pipes admit", () => {
        expect(pod.hostNetwork).toBeUndefined();
        expect(pod.securityContext.windowsOptions.hostProcess).toBeUndefined();
        const sid = containerUserSids[pod.securityContext.windowsOptions.runAsUserName as string];
        expect(command.options.namedPipes?.sids).toContain(sid);
        for (const c of pod.containers as Doc[]) expect(c.securityContext).toBeUndefined();
      });

      it("mounts only its own set's pipes, each at the name upstream's client dials", () => {
        expect(pipes.length).toBeGreaterThan(0);
        const mounts = (pod.containers as Doc[]).flatMap((c) => (c.volumeMounts ?? []) as Doc[]);
        const sets = new Set<string>();
        for (const volume of pipes) {
          const hostName = (volume.hostPath.path as string).slice(pipePrefix.length);
          const api = servedApis.find((a) =>
            served.some((set) => endpointName(set, a) === hostName),
          );
          expect(api, hostName).toBeDefined();
          if (api === undefined) continue;
          const set = served.find((s) => endpointName(s, api) === hostName) as string;
          sets.add(set);
          const at = mounts.filter((m) => m.name === volume.name).map((m) => m.mountPath as string);
          expect(at).toEqual([pipePrefix + endpointName("default", api)]);
        }
        expect(sets.size).toBe(1);
        // The set's rule is this driver's: its plugin folder names the driver the rule grants.
        const [set] = sets;
        const rules = examplePolicy.rules.filter((r) =>
          r.callers.some((c) => c.endpointSet === set),
        );
        expect(rules.map((r) => r.driver)).toEqual([driver]);
      });

      it("mounts nothing else of the host but its plugin and registration folders, and kubelet's where it reads it", () => {
        const others = volumes
          .filter((v) => v.hostPath !== undefined && !pipes.includes(v))
          .map((v) => v.hostPath.path as string);
        const kubelet = readsKubeletFolder.includes(driver) ? [defaultKubeletPath] : [];
        expect(others.sort()).toEqual(
          [pluginDir, `${defaultKubeletPath}\\plugins_registry`, ...kubelet].sort(),
        );
        if (kubelet.length === 0) return;
        const name = volumes.find((v) => v.hostPath?.path === defaultKubeletPath)?.name;
        const mounted = (containers(pod).driver?.volumeMounts as Doc[]).find(
          (m) => m.name === name,
        );
        expect(mounted?.mountPath).toBe(defaultKubeletPath);
      });

      it("tolerates the nodes it must run on, is node-critical, asks for resources, and is probed", () => {
        expect((pod.tolerations as Doc[]).length).toBeGreaterThan(0);
        expect(pod.priorityClassName).toBe("system-node-critical");
        expectResources(pod);
        expectAccount(pod, ds.metadata.namespace as string, driverDocs);
        const { driver: plugin, "node-driver-registrar": registrar } = containers(pod);
        // The liveness-probe sidecar answers /healthz for the driver on the port it names.
        const sidecar = containers(pod)["liveness-probe"] as Doc;
        const healthPort = (sidecar.args as string[])
          .find((a) => a.startsWith("--health-port="))
          ?.split("=")[1];
        const port = (plugin?.ports as Doc[]).find((p) => p.name === "healthz");
        expect(port?.containerPort).toBe(Number(healthPort));
        expect(plugin?.livenessProbe.httpGet).toEqual({ path: "/healthz", port: "healthz" });
        expect(registrar?.livenessProbe.exec.command).toContain(
          "--mode=kubelet-registration-probe",
        );
      });
    });
  }
});
