// The HostProcess image: packages/server/Dockerfile, the release job that builds and pushes it,
// and the manifest that runs it. No Docker engine runs here, so the Dockerfile is checked
// statically: dockerfile-utils' validator (the Docker language server's), and its content.
import { readFileSync } from "node:fs";
import { DockerfileParser } from "dockerfile-ast";
import { validate } from "dockerfile-utils";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";

const root = new URL("../../../", import.meta.url);
const text = (path: string) => readFileSync(new URL(path, root), "utf8");
const dockerfile = text("packages/server/Dockerfile");
const instructions = DockerfileParser.parse(dockerfile).getInstructions();
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const workflow = parse(text(".github/workflows/release.yml")) as Doc;
const job = workflow.jobs["server-image"] as Doc;
const script = (job.steps as Doc[]).map((s) => String(s.run ?? "")).join("\n");
const proxy = parseAllDocuments(text("packages/server/examples/windows/csi-proxy-server.yaml"))
  .map((d) => d.toJS() as Doc)
  .find((d) => d.kind === "DaemonSet") as Doc;
const container = proxy.spec.template.spec.containers[0] as Doc;

describe("packages/server/Dockerfile", () => {
  it("passes dockerfile-utils' validator with nothing to report", () => {
    expect(validate(dockerfile)).toEqual([]);
  });

  it("is the executable on the HostProcess base image, for windows/amd64, and nothing runs", () => {
    const keywords = instructions.map((i) => i.getKeyword());
    expect(keywords).toEqual(["ARG", "FROM", "ARG", "LABEL", "COPY"]);
    expect(instructions[0]?.getArgumentsContent()).toBe(
      "BASE=mcr.microsoft.com/oss/kubernetes/windows-host-process-containers-base-image:v1.0.0",
    );
    expect(instructions[1]?.getTextContent()).toBe("FROM --platform=windows/amd64 ${BASE}");
    expect(instructions.at(-1)?.getArgumentsContent()).toBe(
      "csi-proxy-server.exe /csi-proxy-server/csi-proxy-server.exe",
    );
  });

  it("puts the executable where the manifest's command looks for it", () => {
    const copied = instructions.at(-1)?.getArguments().at(-1)?.getValue() ?? "";
    expect(container.command).toEqual([
      `%CONTAINER_SANDBOX_MOUNT_POINT%${copied.replaceAll("/", "\\")}`,
    ]);
  });
});

describe("the release workflow's server-image job", () => {
  it("runs after a release that published the server, and may push packages", () => {
    expect(job.needs).toBe("release");
    expect(job.if).toContain("'@csi-proxy/server'");
    expect(workflow.jobs.release.outputs.publishedPackages).toBe(
      "${{ steps.changesets.outputs.publishedPackages }}",
    );
    expect(job.permissions).toEqual({ contents: "read", packages: "write" });
  });

  it("builds the executable, then this Dockerfile from artifacts/windows with BuildKit, and pushes it", () => {
    expect(script).toContain("pnpm package:windows");
    expect(script).toMatch(
      /docker buildx build --platform windows\/amd64 --file packages\/server\/Dockerfile[\s\\]+--build-arg "VERSION=\$\{version\}" --tag "\$image" --push artifacts\/windows/,
    );
  });

  it("pushes the image the manifest runs, tagged with the server's version", () => {
    const image = /image="([^"]+)"/.exec(script)?.[1] ?? "";
    const expected = image
      .replace("${GITHUB_REPOSITORY_OWNER,,}", "csi-proxy-ts")
      .replace("${version}", String(container.image).split(":")[1] ?? "");
    expect(container.image).toBe(expected);
  });
});
