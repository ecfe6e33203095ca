// During a migration the server runs beside upstream's csi-proxy.exe: with --endpoint-set (and
// without `default`) none of its pipes has a name upstream serves, whatever the set is called,
// and no two sets share one. Windows would refuse the second server to create a name
// (FILE_FLAG_FIRST_PIPE_INSTANCE); Wine does not model that, so the names are what is checked.
import { describe, expect, it } from "vitest";
import { parseCommand } from "../src/args.js";
import {
  defaultEndpointSet,
  endpointName,
  isEndpointSetName,
  servedApis,
} from "../src/endpoints.js";

const upstream = new Set(servedApis.map((api) => endpointName(defaultEndpointSet, api)));
// Names chosen to look like pieces of upstream's: a group, a version, a group-version, the prefix.
const sets = ["smb", "disk", "v1", "filesystem-v1", "csi-proxy", "iscsi-v1alpha2", "a", "a-disk"];

describe("a server beside upstream's csi-proxy.exe", () => {
  it("upstream's 23 names are the default set's, and only its", () => {
    expect(upstream.size).toBe(23);
    for (const name of upstream) expect(name).toMatch(/^csi-proxy-[a-z]+-v[0-9a-z]+$/);
  });

  it("serves no upstream name from any named set, and no name twice across sets", () => {
    const seen = new Map<string, string>();
    for (const set of sets) {
      expect(isEndpointSetName(set), set).toBe(true);
      for (const api of servedApis) {
        const name = endpointName(set, api);
        expect(upstream.has(name), `${set}: ${name}`).toBe(false);
        expect(seen.get(name), name).toBeUndefined();
        seen.set(name, set);
      }
    }
    expect(seen.size).toBe(sets.length * servedApis.length);
  });

  it("with --endpoint-set and no `default`, the command line serves named sets only", () => {
    const command = parseCommand(
      ["--endpoint-set", "smb", "--policy", "p.json", "--pipe-sid", "S-1-5-93-2-2"],
      "win32",
    );
    if (command.help || command.version === true) throw new Error("not a server command line");
    expect(command.options.endpointSets).toEqual(["smb"]);
  });
});
