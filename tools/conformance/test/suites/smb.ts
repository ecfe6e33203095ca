import { readFile, writeFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { ctx, expectCode, join } from "./context.js";

export function smbPart(): void {
  describe("smb", () => {
    const staging = () => join(ctx().host.scratchRoot, "smb", "pv-s", "globalmount");

    it("refuses a wrong password with PERMISSION_DENIED", async () => {
      const { smb } = ctx().host;
      await expectCode(
        ctx().groups.smb.newSmbGlobalMapping({
          remotePath: smb.subPath,
          username: smb.username,
          password: `${smb.password}-wrong`,
          requirePrivacy: smb.encryption,
        }),
        "PERMISSION_DENIED",
      );
    });

    it("maps the share and links the staging path, twice (the repeat reuses both)", async () => {
      const { smb } = ctx().host;
      const { smb: group, filesystem } = ctx().groups;
      await filesystem.mkdir({ path: join(ctx().host.scratchRoot, "smb", "pv-s") });
      const request = {
        remotePath: smb.subPath,
        localPath: staging(),
        username: smb.username,
        password: smb.password,
        requirePrivacy: smb.encryption,
      };
      expect(await group.newSmbGlobalMapping(request)).toEqual({
        mapping: "created",
        link: "created",
      });
      expect(await group.newSmbGlobalMapping(request)).toEqual({
        mapping: "reused",
        link: "existing",
      });
      const { mappings } = await group.listSmbGlobalMappings();
      const ours = mappings.filter(
        (m) => m.remotePath.toLowerCase() === smb.remotePath.toLowerCase(),
      );
      expect(ours).toMatchObject([{ status: "OK", statusCode: 0 }]);
    });

    it("writes and reads a file through the staging link", async () => {
      const file = join(staging(), "hello.txt");
      await writeFile(file, "through SMB\n");
      expect(await readFile(file, "utf8")).toBe("through SMB\n");
      expect(await ctx().groups.filesystem.isSymlink({ path: staging() })).toEqual({
        isSymlink: true,
      });
    });

    it("removes the link and the mapping, twice (the repeat is a no-op)", async () => {
      const { smb } = ctx().host;
      const { smb: group, filesystem } = ctx().groups;
      await filesystem.rmdir({ path: staging() });
      expect(await group.removeSmbGlobalMapping({ remotePath: smb.subPath })).toEqual({
        removed: true,
      });
      expect(await group.removeSmbGlobalMapping({ remotePath: smb.subPath })).toEqual({
        removed: false,
      });
      const { mappings } = await group.listSmbGlobalMappings();
      expect(
        mappings.filter((m) => m.remotePath.toLowerCase() === smb.remotePath.toLowerCase()),
      ).toEqual([]);
      await filesystem.rmdir({ path: join(ctx().host.scratchRoot, "smb"), force: true });
    });
  });
}
