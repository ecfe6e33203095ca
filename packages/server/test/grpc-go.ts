// Builds the grpc-go client of test-go/client against Debian's grpc-go (GOPATH mode, no module
// proxy), with stubs generated from the package's proto/ at test time, and runs it.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";

const packageRoot = fileURLToPath(new URL("..", import.meta.url));
const protoRoot = join(packageRoot, "proto");
const clientSources = join(packageRoot, "test-go", "client");
const cacheRoot = join(packageRoot, "node_modules", ".cache", "grpc-go");
const goPackage = "csiproxytest";

/** Where Debian puts what the suite needs (`.ci/run` installs it). */
const debianGo = "/usr/lib/go-1.19/bin";
const debianGoPath = "/usr/share/gocode";

function onPath(name: string, extra: readonly string[] = []): string | undefined {
  const dirs = [...extra, ...(process.env.PATH ?? "").split(delimiter)];
  return dirs.map((dir) => join(dir, name)).find((path) => existsSync(path));
}

interface Toolchain {
  readonly go: string;
  readonly protoc: string;
  readonly pluginDirs: readonly string[];
}

function toolchain(): Toolchain | undefined {
  const go = onPath("go", [debianGo]);
  const protoc = onPath("protoc");
  const plugins = ["protoc-gen-go", "protoc-gen-go-grpc"].map((name) => onPath(name));
  const grpc = existsSync(join(debianGoPath, "src", "google.golang.org", "grpc", "server.go"));
  if (go === undefined || protoc === undefined || plugins.includes(undefined) || !grpc)
    return undefined;
  return { go, protoc, pluginDirs: plugins.map((path) => dirname(path ?? "")) };
}

function files(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(suffix))
    .sort();
}

function run(command: string, args: readonly string[], env: NodeJS.ProcessEnv): string {
  const ran = spawnSync(command, args, { env, encoding: "utf8", timeout: 600_000 });
  if (ran.status !== 0) {
    throw new Error(`${command} ${args.join(" ")} failed: ${ran.stderr}${String(ran.error ?? "")}`);
  }
  return ran.stdout;
}

/** Builds the client once per content (protos, Go sources, Go version); returns its path. */
function build(tools: Toolchain): string {
  const env: NodeJS.ProcessEnv = {
    PATH: [...tools.pluginDirs, dirname(tools.go), process.env.PATH ?? ""].join(delimiter),
    HOME: process.env.HOME ?? tmpdir(),
    GO111MODULE: "off",
    GOPROXY: "off",
    GOFLAGS: "",
    GOCACHE: join(cacheRoot, "go-build"),
  };
  const hash = createHash("sha256").update(run(tools.go, ["version"], env));
  const protos = files(protoRoot, ".proto");
  const sources = files(clientSources, ".go");
  for (const name of protos) hash.update(name).update(readFileSync(join(protoRoot, name)));
  for (const name of sources) hash.update(name).update(readFileSync(join(clientSources, name)));
  const out = join(cacheRoot, hash.digest("hex").slice(0, 16));
  const binary = join(out, "client");
  if (existsSync(binary)) return binary;
  mkdirSync(cacheRoot, { recursive: true });
  const work = mkdtempSync(join(cacheRoot, "build-"));
  try {
    const src = join(work, "gopath", "src");
    mkdirSync(src, { recursive: true });
    // Each api.proto becomes package <goPackage>/api/<group>/<version> (the protos name no go_package).
    const mappings = protos.flatMap((name) => {
      const importPath = `${goPackage}/api/${dirname(name)}`;
      return [`--go_opt=M${name}=${importPath}`, `--go-grpc_opt=M${name}=${importPath}`];
    });
    run(
      tools.protoc,
      [`-I${protoRoot}`, `--go_out=${src}`, `--go-grpc_out=${src}`, ...mappings, ...protos],
      env,
    );
    cpSync(clientSources, join(src, goPackage, "client"), { recursive: true });
    const goPath = [join(work, "gopath"), debianGoPath].join(delimiter);
    mkdirSync(join(work, "bin"));
    run(tools.go, ["build", "-o", join(work, "bin", "client"), `${goPackage}/client`], {
      ...env,
      GOPATH: goPath,
    });
    // Another worker may have built the same one meanwhile: either copy will do.
    try {
      renameSync(join(work, "bin"), out);
    } catch {
      if (!existsSync(binary)) throw new Error(`could not place the client in ${out}`);
    }
    return binary;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

let built: string | undefined;

/** The built client (building it on first use: about a minute on a cold Go cache). */
export function goClient(): string {
  const tools = toolchain();
  if (tools === undefined) throw new Error("grpc-go's toolchain is not installed");
  built ??= build(tools);
  return built;
}

/**
 * `describe` for suites that drive the server with grpc-go: skipped only where Debian's Go and
 * grpc-go are not installed, and never under CSI_PROXY_REQUIRE_GO=1 (CI), where that fails.
 */
export function describeWithGo(name: string, body: () => void): void {
  if (toolchain() !== undefined) {
    describe(name, body);
    return;
  }
  if (process.env.CSI_PROXY_REQUIRE_GO === "1") {
    throw new Error(
      "CSI_PROXY_REQUIRE_GO=1 but Go, protoc and grpc-go are not installed (.ci/run installs them): the grpc-go suite must not be skipped.",
    );
  }
  describe.skip(`${name} (grpc-go toolchain unavailable)`, body);
}

/** One endpoint as the client's plan names it. */
export interface GoEndpoint {
  readonly key: string;
  /** Upstream's pipe name without `\\.\pipe\`: `csi-proxy-<group>-<version>`. */
  readonly name: string;
  /** The Unix socket to dial (the server's, or a bridge to a pipe). */
  readonly socket: string;
}

/** What the client is told: where to dial and how. */
export interface GoPlan {
  readonly endpoints: readonly GoEndpoint[];
  /** `pipe` (upstream's raw target), `socket` (the path), `encoded` (grpc-go ≥ 1.57). */
  readonly authority: "pipe" | "socket" | "encoded";
  readonly leakProbe?: boolean;
  readonly faults?: string;
}

function planFile(plan: GoPlan): string {
  const file = join(mkdtempSync(join(tmpdir(), "csi-go-plan-")), "plan.json");
  writeFileSync(file, JSON.stringify(plan));
  return file;
}

/** Runs one command of the client to its end; resolves with the JSON lines it printed. */
export function runGo<T = Record<string, unknown>>(
  command: string,
  plan: GoPlan,
  ...args: string[]
): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(goClient(), [command, planFile(plan), ...args], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => {
      if (code !== 0) reject(new Error(`client ${command} exited ${String(code)}: ${stderr}`));
      else
        resolve(
          stdout
            .split("\n")
            .filter((line) => line !== "")
            .map((line) => JSON.parse(line) as T),
        );
    });
  });
}

/** Starts a long-running command of the client; `lines` yields what it prints as it prints it. */
export function startGo(
  command: string,
  plan: GoPlan,
  ...args: string[]
): { child: ChildProcess; lines: AsyncIterableIterator<string> } {
  const child = spawn(goClient(), [command, planFile(plan), ...args], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  return { child, lines: createInterface({ input: child.stdout })[Symbol.asyncIterator]() };
}
