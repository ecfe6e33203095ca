// The conformance suite: every API group through a node's work, against the host the
// environment selects (the simulator by default; see docs/guides/verifying-on-windows.md).
// The parts run in order and share what earlier parts made, as one node's life does.
import { afterAll, beforeAll, describe } from "vitest";
import { CallLog } from "../src/call-log.js";
import { createHost, hostHookTimeoutMs } from "../src/create-host.js";
import { createGroups } from "../src/groups.js";
import type { ConformanceHost } from "../src/host.js";
import { writeResult } from "../src/results.js";
import { selectHost } from "../src/select.js";
import { diskPart } from "./suites/disk.js";
import { iscsiPart } from "./suites/iscsi.js";
import { smbPart } from "./suites/smb.js";
import { suite } from "./suites/context.js";
import { systemPart } from "./suites/system.js";
import { volumePart } from "./suites/volume.js";

const selection = selectHost();
// Setup and teardown on Windows outlast vitest's shared hookTimeout (3 min).
const hookTimeout = hostHookTimeoutMs(selection);

describe(`conformance on the ${selection.kind} host`, () => {
  const log = new CallLog();
  let host: ConformanceHost | undefined;

  beforeAll(async () => {
    host = await createHost(selection);
    suite.current = { host, groups: createGroups(host), volumeA: "", diskA: -1, staging: "" };
  }, hookTimeout);

  afterAll(async () => {
    log.stop();
    writeResult(`calls-${selection.kind}.json`, log.calls);
    const cmdlets = host?.cmdletCalls();
    if (cmdlets !== undefined) writeResult(`cmdlets-${selection.kind}.json`, cmdlets);
    try {
      await suite.current?.groups.shell.close();
    } finally {
      // Teardown runs whatever happened above; it is idempotent.
      await host?.teardown();
      suite.current = undefined;
    }
  }, hookTimeout);

  systemPart();
  diskPart();
  volumePart();
  smbPart();
  iscsiPart();
});
