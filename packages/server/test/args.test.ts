import { describe, expect, it } from "vitest";
import { parseCommand, UsageError } from "../src/args.js";
import { defaultLogSettings } from "../src/logging/klog-flags.js";

describe("parseCommand", () => {
  it("takes upstream's flags, in Go's single-dash spelling too", () => {
    expect(
      parseCommand([
        "-kubelet-path",
        "D:\\kubelet",
        "--working-dir",
        "C:\\a",
        "-working-dir=C:\\b",
        "-require-privacy=false",
        "--socket-dir",
        "/run/x",
        "--policy",
        "/etc/p.json",
        "--audit-log",
        "/var/log/a.jsonl",
      ]),
    ).toEqual({
      help: false,
      options: {
        socketDir: "/run/x",
        socketMode: 0o600,
        simulate: false,
        kubeletPath: "D:\\kubelet",
        workingDirs: ["C:\\a", "C:\\b"],
        requirePrivacy: false,
        policy: "/etc/p.json",
      },
      auditLog: "/var/log/a.jsonl",
      auditRotation: { maxBytes: 100 * 1024 * 1024, keep: 5 },
      log: defaultLogSettings,
    });
  });

  it("defaults: owner-only sockets, privacy required", () => {
    expect(
      parseCommand(["--socket-dir", "/s", "--simulate", "--policy", "v1-compatible"]),
    ).toMatchObject({
      options: { socketMode: 0o600, requirePrivacy: true, simulate: true, workingDirs: [] },
    });
    expect(
      parseCommand([
        "--socket-dir",
        "/s",
        "--require-privacy",
        "--socket-mode",
        "0660",
        "--policy",
        "p",
      ]),
    ).toMatchObject({
      options: { socketMode: 0o660, requirePrivacy: true },
    });
  });

  it.each([
    [[], "--socket-dir is required"],
    [["--socket-dir", "/s"], "--policy is required"],
    [["--socket-dir", "/s", "--socket-mode", "0666"], "--socket-mode is 0600 or 0660"],
    [["--socket-dir", "/s", "--require-privacy=maybe"], "--require-privacy takes true or false"],
    [["--socket-dir", "/s", "--windows-service"], "runs under the Windows service manager only"],
    [["--socket-dir", "/s", "--bogus"], "Unknown option"],
    [["--socket-dir", "/s", "extra"], "positional"],
  ])("refuses %j", (argv, message) => {
    expect(() => parseCommand(argv)).toThrow(UsageError);
    expect(() => parseCommand(argv)).toThrow(message);
  });

  it("on Windows: named pipes, no --socket-dir; --pipe-sid admits more SIDs", () => {
    expect(parseCommand(["--policy", "p"], "win32")).toMatchObject({ options: { policy: "p" } });
    expect(
      parseCommand(["--policy", "p", "--pipe-sid", "S-1-5-32-545", "--pipe-sid", "NS"], "win32"),
    ).toMatchObject({ options: { namedPipes: { sids: ["S-1-5-32-545", "NS"] } } });
    expect(() => parseCommand(["--policy", "p", "--socket-dir", "C:\\s"], "win32")).toThrow(
      "on Windows the endpoints are named pipes",
    );
    expect(() =>
      parseCommand(["--socket-dir", "/s", "--policy", "p", "--pipe-sid", "NS"], "linux"),
    ).toThrow("--pipe-sid applies to Windows named pipes only");
  });

  it("token flags: a JWKS file or URL, the audience (default csi-proxy) and issuer", () => {
    const base = ["--socket-dir", "/s", "--policy", "p"];
    expect(parseCommand([...base, "--jwks-file", "/k.json"])).toMatchObject({
      options: { tokens: { jwksFile: "/k.json", audience: "csi-proxy" } },
    });
    expect(
      parseCommand([
        ...base,
        "--jwks-url",
        "https://x/jwks",
        "--token-audience",
        "a",
        "--token-issuer",
        "i",
      ]),
    ).toMatchObject({
      options: { tokens: { jwksUrl: "https://x/jwks", audience: "a", issuer: "i" } },
    });
    expect(parseCommand(base)).not.toHaveProperty("options.tokens");
    expect(() => parseCommand([...base, "--jwks-file", "a", "--jwks-url", "https://b"])).toThrow(
      "not both",
    );
    expect(() => parseCommand([...base, "--token-audience", "a"])).toThrow(
      "need --jwks-file or --jwks-url",
    );
    expect(() => parseCommand([...base, "--jwks-url", "file:///k"])).toThrow(
      "must be an http(s) URL",
    );
  });

  it("--endpoint-set: one set per driver, repeatable; only the sets given", () => {
    const base = ["--socket-dir", "/s", "--policy", "p"];
    expect(parseCommand(base)).not.toHaveProperty("options.endpointSets");
    expect(
      parseCommand([...base, "--endpoint-set", "smb", "--endpoint-set=iscsi-2"]),
    ).toMatchObject({ options: { endpointSets: ["smb", "iscsi-2"] } });
    expect(parseCommand(["--policy", "p", "--endpoint-set", "default"], "win32")).toMatchObject({
      options: { endpointSets: ["default"] },
    });
    for (const bad of ["", "Smb", "1smb", "smb-", "s/b", "s\\b", "s.b", "a".repeat(41)]) {
      expect(() => parseCommand([...base, "--endpoint-set", bad])).toThrow(
        "1 to 40 lowercase letters",
      );
    }
    expect(() => parseCommand([...base, "--endpoint-set", "a", "--endpoint-set", "a"])).toThrow(
      "names a set twice",
    );
  });

  it("--powershell-pool: 1 to 64 processes, absent for the default", () => {
    const base = ["--socket-dir", "/s", "--policy", "v1-compatible"];
    expect(parseCommand([...base, "--powershell-pool", "8"])).toMatchObject({
      options: { powershellPool: 8 },
    });
    expect(parseCommand(base)).not.toHaveProperty("options.powershellPool");
    for (const bad of ["0", "65", "2.5", "04", "x", ""])
      expect(() => parseCommand([...base, "--powershell-pool", bad]), bad).toThrow(
        /--powershell-pool is a whole number from 1 to 64/,
      );
  });

  it("--simulate-scenario", () => {
    expect(
      parseCommand(["--socket-dir", "/s", "--policy", "p", "--simulate-scenario", "/x.json"]),
    ).toMatchObject({
      options: { scenarioFile: "/x.json", simulate: false },
    });
  });

  it("--help", () => {
    expect(parseCommand(["-h"])).toEqual({ help: true });
  });

  it("--version (and Go's -version), needing nothing else; --help wins", () => {
    expect(parseCommand(["--version"])).toEqual({ help: false, version: true });
    expect(parseCommand(["-version"], "win32")).toEqual({ help: false, version: true });
    expect(parseCommand(["--version", "--help"])).toEqual({ help: true });
  });
});
