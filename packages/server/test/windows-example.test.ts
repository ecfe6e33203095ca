// The Windows deployment example (examples/windows, docs/windows-deployment.md) is what the
// server accepts: its command line parses as on Windows, its policy is the README's and loads
// with the sets it serves, and each driver mounts only its own set's pipes, at upstream's names.
// Nothing here ran on Windows: it checks the manifests against the server, not against a node.
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
import { readmePolicy } from "./readme-policy.js";

type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function manifests(file: string): Doc[] {
  const text = readFileSync(new URL(`../examples/windows/${file}`, import.meta.url), "utf8");
  return parseAllDocuments(text).map((d) => d.toJS() as Doc);
}

const proxyDocs = manifests("csi-proxy-server.yaml");
const driverDocs = manifests("driver-node.yaml");
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
  rules: { callers: { endpointSet?: string }[]; driver?: string }[];
};

describe("examples/windows/csi-proxy-server.yaml", () => {
  it("runs the server as SYSTEM in a HostProcess pod, where its pipes are the host's", () => {
    const pod = proxy.spec.template.spec as Doc;
    expect(pod.hostNetwork).toBe(true);
    expect(pod.securityContext.windowsOptions).toEqual({
      hostProcess: true,
      runAsUserName: "NT AUTHORITY\\SYSTEM",
    });
    expect(server.command[1]).toMatch(/\\@csi-proxy\\server\\dist\\bin\.js$/);
  });

  it("serves one set per driver and admits ContainerUser to the pipes, nothing wider", () => {
    expect(served).toEqual(["iscsi", "smb"]);
    const sids = command.options.namedPipes?.sids ?? [];
    expect(sids).toEqual([containerUserSids.ContainerUser]);
    expect(pipeSddl(sids)).toBe("D:P(A;;GA;;;SY)(A;;GA;;;BA)(A;;GRGW;;;S-1-5-93-2-2)");
  });

  it("loads the README's endpoint-sets policy from the mounted ConfigMap", () => {
    expect(examplePolicy).toEqual(readmePolicy("endpoint-sets-policy"));
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

describe("examples/windows/driver-node.yaml", () => {
  it("has both drivers of the policy", () => {
    expect(drivers).toHaveLength(2);
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

      it("mounts nothing else of the host but its plugin and registration folders", () => {
        const others = volumes
          .filter((v) => v.hostPath !== undefined && !pipes.includes(v))
          .map((v) => v.hostPath.path as string);
        expect(others.sort()).toEqual(
          [pluginDir, `${defaultKubeletPath}\\plugins_registry`].sort(),
        );
      });
    });
  }
});
