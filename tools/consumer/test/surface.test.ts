import * as disk from "@csi-proxy/disk";
import * as exec from "@csi-proxy/exec";
import * as filesystem from "@csi-proxy/filesystem";
import * as iscsi from "@csi-proxy/iscsi";
import * as smb from "@csi-proxy/smb";
import * as system from "@csi-proxy/system";
import * as volume from "@csi-proxy/volume";
import { describe, expect, expectTypeOf, it } from "vitest";

// A driver using one group imports its error guards and the empty response from that group alone.
const groups = { disk, filesystem, iscsi, smb, system, volume } as const;

describe("every group's surface", () => {
  it.each(Object.entries(groups))("%s re-exports exec's error class and guard", (_, group) => {
    expect(group.CsiProxyError).toBe(exec.CsiProxyError);
    expect(group.isCsiProxyError).toBe(exec.isCsiProxyError);
  });

  it("re-exports the groups' own guards from their entry points", () => {
    expect(typeof exec.isPowerShellError).toBe("function");
    expect(typeof exec.brandedGuard).toBe("function");
    expect(typeof disk.isDiskNotFoundError).toBe("function");
    expect(typeof disk.isDiskReadOnlyError).toBe("function");
    expect(typeof iscsi.isIscsiError).toBe("function");
    expect(typeof system.isServiceNotFoundError).toBe("function");
    expect(typeof system.isServiceHasDependentsError).toBe("function");
    expect(typeof system.isServiceTimeoutError).toBe("function");
    expect(typeof system.isServiceStateError).toBe("function");
    expect(typeof volume.isSupportedSizeUnavailableError).toBe("function");
  });

  it("names the empty response once: every group's EmptyResponse is exec's", () => {
    expectTypeOf<disk.EmptyResponse>().toEqualTypeOf<exec.EmptyResponse>();
    expectTypeOf<filesystem.EmptyResponse>().toEqualTypeOf<exec.EmptyResponse>();
    expectTypeOf<iscsi.EmptyResponse>().toEqualTypeOf<exec.EmptyResponse>();
    expectTypeOf<smb.EmptyResponse>().toEqualTypeOf<exec.EmptyResponse>();
    expectTypeOf<system.EmptyResponse>().toEqualTypeOf<exec.EmptyResponse>();
    expectTypeOf<volume.EmptyResponse>().toEqualTypeOf<exec.EmptyResponse>();
    expectTypeOf<filesystem.MkdirResponse>().toEqualTypeOf<exec.EmptyResponse>();
    expectTypeOf<disk.RescanResponse>().toEqualTypeOf<exec.EmptyResponse>();
    expectTypeOf<volume.FormatVolumeResponse>().toEqualTypeOf<exec.EmptyResponse>();
    expectTypeOf<iscsi.ConnectTargetResponse>().toEqualTypeOf<exec.EmptyResponse>();
  });
});
