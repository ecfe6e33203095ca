import type { PowerShell } from "@csi-proxy/exec";
import { describe, expectTypeOf, it } from "vitest";
import {
  Disk,
  type DiskHost,
  type GetDiskStatsResponse,
  type ListDiskIdsResponse,
  type ListDiskLocationsResponse,
} from "../src/index.js";

describe("Disk types", () => {
  it("takes one request object per method", () => {
    const disk = new Disk({ shell: {} as PowerShell });
    expectTypeOf<Parameters<Disk["getDiskStats"]>[0]>().toEqualTypeOf<{
      readonly diskNumber: number;
    }>();
    expectTypeOf(
      disk.getDiskStats({ diskNumber: 1 }),
    ).resolves.toEqualTypeOf<GetDiskStatsResponse>();
    expectTypeOf<GetDiskStatsResponse["totalBytes"]>().toEqualTypeOf<number | bigint>();
    expectTypeOf(disk.listDiskIds()).resolves.toEqualTypeOf<ListDiskIdsResponse>();
    expectTypeOf<ListDiskLocationsResponse["diskLocations"]>().toExtend<
      ReadonlyMap<number, { adapter: string; bus: string; target: string; lunId: string }>
    >();
    // @ts-expect-error isOnline is required
    void disk.setDiskState({ diskNumber: 1 });
    // @ts-expect-error requests are objects, not bare numbers
    void disk.getDiskState(1);
    // @ts-expect-error empty requests take no fields
    void disk.rescan({ force: true });
  });

  it("accepts a host or a shell", () => {
    expectTypeOf<ConstructorParameters<typeof Disk>[0]>().toEqualTypeOf<
      { shell?: PowerShell | undefined; host?: DiskHost | undefined } | undefined
    >();
  });
});
