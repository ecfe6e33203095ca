#!/usr/bin/env node
// `pnpm release:rehearsal`: the release path, run against a real registry on this machine. A local
// Verdaccio (6.8.0, the last line that runs on Node 20) stands in for npm: a copy of the checkout
// goes through `changeset version` and `changeset publish` as .github/workflows/release.yml does;
// @csi-proxy/server is installed alone with npm into an empty prefix and answers --version;
// @csi-proxy/disk is installed alone into an empty project and used; then a change to disk alone
// is released and only disk's version moves. The one departure from the workflow: no provenance,
// which only a GitHub Actions job can sign.
import { execFileSync, spawn } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { publishedPackageNames } from "./install-from-source.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const verdaccioBin = fileURLToPath(new URL("node_modules/.bin/verdaccio", import.meta.url));

/** Verdaccio's configuration: @csi-proxy/* only from what is published to it, the rest from `uplink`. */
export function verdaccioConfig(storage, uplink) {
  return [
    `storage: ${JSON.stringify(storage)}`,
    "auth:",
    "  htpasswd:",
    `    file: ${JSON.stringify(join(storage, "htpasswd"))}`,
    // A throwaway user: bcrypt's default cost would add ~0.25 s to every authenticated request.
    "    algorithm: sha1",
    "uplinks:",
    "  npmjs:",
    `    url: ${JSON.stringify(uplink)}`,
    "packages:",
    // Never proxied: a name taken on npm must not stand in for one we did not publish.
    "  '@csi-proxy/*':",
    "    access: $all",
    "    publish: $authenticated",
    "  '**':",
    "    access: $all",
    "    proxy: npmjs",
    "log: { type: stdout, format: pretty, level: error }",
    "",
  ].join("\n");
}

/** Which packages' versions differ between two `{ name: version }` maps. */
export function movedVersions(before, after) {
  return Object.keys(after)
    .filter((name) => before[name] !== after[name])
    .sort();
}

const started = Date.now();

function step(title) {
  console.log(`\n== [${Math.round((Date.now() - started) / 1000)} s] ${title}`);
}

function run(command, args, options = {}) {
  return execFileSync(command, args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    ...options,
  });
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

async function startVerdaccio(work) {
  const storage = join(work, "storage");
  mkdirSync(storage, { recursive: true });
  const config = join(work, "verdaccio.yaml");
  const uplink = run("npm", ["config", "get", "registry"]).trim();
  writeFileSync(config, verdaccioConfig(storage, uplink));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/`;
  const child = spawn(verdaccioBin, ["--config", config, "--listen", `127.0.0.1:${port}`], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`Verdaccio exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}-/ping`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error("Verdaccio did not answer in 60 s");
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // A user of its own (htpasswd): `changeset publish` publishes with this token, as with NPM_TOKEN.
  const response = await fetch(`${url}-/user/org.couchdb.user:rehearsal`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "rehearsal", password: "rehearsal-only" }),
  });
  const { token } = await response.json();
  if (typeof token !== "string") throw new Error(`Verdaccio gave no token (${response.status})`);
  return { child, url, token };
}

/** The checkout as git sees it (tracked and untracked, not ignored) plus the packages' builds. */
function copyCheckout(target) {
  const files = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], {
    cwd: root,
  })
    .split("\0")
    .filter((file) => file !== "" && existsSync(join(root, file)));
  for (const file of files) {
    mkdirSync(dirname(join(target, file)), { recursive: true });
    cpSync(join(root, file), join(target, file));
  }
  for (const dir of readdirSync(join(root, "packages")))
    cpSync(join(root, "packages", dir, "dist"), join(target, "packages", dir, "dist"), {
      recursive: true,
    });
}

/**
 * The copy's packages without `publishConfig.provenance`: npm lets publishConfig override the
 * environment, and provenance can only be signed in a GitHub Actions job. Nothing else differs.
 */
export function withoutProvenance(repo) {
  for (const dir of readdirSync(join(repo, "packages"))) {
    const file = join(repo, "packages", dir, "package.json");
    const manifest = JSON.parse(readFileSync(file, "utf8"));
    if (manifest.private === true || manifest.publishConfig?.provenance !== true) continue;
    delete manifest.publishConfig.provenance;
    writeFileSync(file, `${JSON.stringify(manifest, null, 2)}\n`);
  }
}

/** Every published package's version on the registry (`npm view`), by name. */
function registryVersions(names, env) {
  return Object.fromEntries(
    names.map((name) => [
      name,
      JSON.parse(run("npm", ["view", name, "versions", "--json"], { env })),
    ]),
  );
}

function latest(versions) {
  return Object.fromEntries(
    Object.entries(versions).map(([name, list]) => [name, [list].flat().at(-1)]),
  );
}

function expect(condition, message) {
  if (!condition) throw new Error(`rehearsal failed: ${message}`);
  console.log(`ok: ${message}`);
}

async function main() {
  const work = mkdtempSync(join(tmpdir(), "csi-rehearsal-"));
  let verdaccio;
  try {
    step("build the packages (turbo; cached after pnpm test)");
    execFileSync(
      "pnpm",
      ["exec", "turbo", "run", "build", "--filter=./packages/*", "--output-logs=errors-only"],
      {
        cwd: root,
        stdio: "inherit",
      },
    );

    step("a local registry (Verdaccio 6.8.0)");
    verdaccio = await startVerdaccio(work);
    const npmrc = join(work, "npmrc");
    const host = verdaccio.url.replace(/^http:/, "");
    writeFileSync(npmrc, `registry=${verdaccio.url}\n${host}:_authToken=${verdaccio.token}\n`);
    const env = {
      ...process.env,
      NPM_CONFIG_USERCONFIG: npmrc,
      npm_config_registry: verdaccio.url,
      NPM_CONFIG_PROVENANCE: "false",
      CI: "true",
    };

    step("a copy of the checkout, installed offline from pnpm's store");
    const repo = join(work, "repo");
    copyCheckout(repo);
    run(
      "pnpm",
      ["install", "--frozen-lockfile", "--offline", "--config.confirmModulesPurge=false"],
      {
        cwd: repo,
        env,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    withoutProvenance(repo);
    const git = (...args) =>
      run("git", ["-c", "user.name=rehearsal", "-c", "user.email=rehearsal@localhost", ...args], {
        cwd: repo,
      });
    git("init", "-q", "-b", "main");
    git("add", "-A");
    git("commit", "-q", "-m", "rehearsal: the checkout");

    step("changeset version, then changeset publish (the workflow's two steps)");
    const changeset = join(repo, "node_modules", ".bin", "changeset");
    run(changeset, ["version"], { cwd: repo, env, stdio: ["ignore", "inherit", "inherit"] });
    git("add", "-A");
    git("commit", "-q", "-m", "release: version packages");
    run(changeset, ["publish"], { cwd: repo, env, stdio: ["ignore", "inherit", "inherit"] });
    const names = publishedPackageNames(repo);
    const first = latest(registryVersions(names, env));
    for (const name of names) {
      const manifest = JSON.parse(
        readFileSync(join(repo, "packages", name.split("/")[1], "package.json"), "utf8"),
      );
      expect(first[name] === manifest.version, `${name}@${manifest.version} is on the registry`);
    }

    step("npm install -g @csi-proxy/server alone, into an empty prefix");
    const prefix = join(work, "prefix");
    mkdirSync(join(prefix, "lib"), { recursive: true });
    run(
      "npm",
      ["install", "--global", "--prefix", prefix, "--no-audit", "--no-fund", "@csi-proxy/server"],
      { env, stdio: ["ignore", "inherit", "inherit"] },
    );
    const version = run(join(prefix, "bin", "csi-proxy-server"), ["--version"], { env }).trim();
    expect(version === first["@csi-proxy/server"], `csi-proxy-server --version prints ${version}`);
    const serverModules = join(
      prefix,
      "lib",
      "node_modules",
      "@csi-proxy",
      "server",
      "node_modules",
    );
    expect(
      !existsSync(join(prefix, "lib", "node_modules", "@csi-proxy", "winsim")) &&
        !existsSync(join(serverModules, "@csi-proxy", "winsim")),
      "the optional simulator peer is not installed with it",
    );

    step("npm install @csi-proxy/disk alone into an empty project, and use it");
    const project = join(work, "project");
    mkdirSync(project);
    writeFileSync(
      join(project, "package.json"),
      JSON.stringify({ name: "driver", private: true, type: "module" }),
    );
    run("npm", ["install", "--no-audit", "--no-fund", "@csi-proxy/disk"], {
      cwd: project,
      env,
      stdio: ["ignore", "inherit", "inherit"],
    });
    const scoped = readdirSync(join(project, "node_modules", "@csi-proxy")).sort();
    expect(
      JSON.stringify(scoped) === JSON.stringify(["disk", "exec"]),
      `the install holds @csi-proxy/${scoped.join(", @csi-proxy/")} only`,
    );
    writeFileSync(join(project, "use.mjs"), DISK_USE);
    const used = JSON.parse(run(process.execPath, ["use.mjs"], { cwd: project }));
    expect(
      used.invalid === "INVALID_ARGUMENT",
      "a bad disk number is refused before the host is touched",
    );
    expect(
      JSON.stringify(used.locations) ===
        JSON.stringify([[1, { adapter: "2", bus: "0", target: "0", lunId: "0" }]]),
      "listDiskLocations parses its host's answer",
    );

    step("a change to @csi-proxy/disk alone, released");
    writeFileSync(
      join(repo, ".changeset", "rehearsal-disk.md"),
      '---\n"@csi-proxy/disk": patch\n---\n\nRehearsal: a fix to disk alone.\n',
    );
    run(changeset, ["version"], { cwd: repo, env, stdio: ["ignore", "inherit", "inherit"] });
    const changed = git("status", "--porcelain")
      .split("\n")
      .filter(Boolean)
      .map((line) => line.slice(3))
      .sort();
    expect(
      JSON.stringify(changed) ===
        JSON.stringify(["packages/disk/CHANGELOG.md", "packages/disk/package.json"]),
      `changeset version touched ${changed.join(", ")} only`,
    );
    git("add", "-A");
    git("commit", "-q", "-m", "release: version packages");
    run(changeset, ["publish"], { cwd: repo, env, stdio: ["ignore", "inherit", "inherit"] });
    const second = latest(registryVersions(names, env));
    const moved = movedVersions(first, second);
    expect(
      JSON.stringify(moved) === JSON.stringify(["@csi-proxy/disk"]),
      `only @csi-proxy/disk moved (${first["@csi-proxy/disk"]} → ${second["@csi-proxy/disk"]})`,
    );

    console.log(`\nrelease rehearsal passed in ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    if (verdaccio !== undefined) {
      verdaccio.child.kill("SIGTERM");
    }
    rmSync(work, { recursive: true, force: true });
  }
}

// A driver's first use of @csi-proxy/disk: validation before any host call, and a call through a
// host of its own (no Windows here).
const DISK_USE = `import { Disk } from "@csi-proxy/disk";
const location = "Integrated : Bus 0 : Device 8331 : Function 65486 : Adapter 2 : Port 0 : Target 0 : LUN 0";
const host = { listDiskLocations: async () => [{ number: 1, location }] };
const disk = new Disk({ host });
let invalid;
try { await disk.getDiskStats({ diskNumber: -1 }); } catch (error) { invalid = error.code; }
const { diskLocations } = await disk.listDiskLocations({});
console.log(JSON.stringify({ invalid, locations: [...diskLocations] }));
`;

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  });
}
