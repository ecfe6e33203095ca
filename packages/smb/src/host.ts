import type { PowerShell } from "@csi-proxy/exec";
import type { NewMappingRequest, SmbHost, SmbMappingInfo, SmbMappingState } from "./host-types.js";
import { parseMappingList, parseMappingState, parseRemoved } from "./parse.js";
import {
  getMappingScript,
  listMappingsScript,
  newMappingScript,
  removeMappingScript,
} from "./scripts.js";

/** Every script of this package, for audits and static checks. */
export const smbScripts = Object.freeze({
  /** Reads one share root's mapping and tests its path. */
  getMapping: getMappingScript,
  /** Creates (or replaces) a mapping. */
  newMapping: newMappingScript,
  /** Removes a share root's mapping. */
  removeMapping: removeMappingScript,
  /** Lists every global mapping. */
  listMappings: listMappingsScript,
});

/**
 * The default {@link SmbHost}: each method is one constant script run through `shell`. Every
 * value is a parameter; the password is the `Password` parameter, also listed in `secrets`, so
 * exec redacts it from every error and diagnostics event.
 *
 * @example
 * ```ts
 * const smb = new Smb({ host: createPowerShellSmbHost(createPowerShell()) });
 * ```
 */
export function createPowerShellSmbHost(shell: PowerShell): SmbHost {
  return {
    async getMapping(shareRoot: string): Promise<SmbMappingState | undefined> {
      return parseMappingState(await shell.run(getMappingScript, { ShareRoot: shareRoot }));
    },
    async newMapping(request: NewMappingRequest): Promise<void> {
      await shell.run(
        newMappingScript,
        {
          ShareRoot: request.shareRoot,
          UserName: request.username,
          Password: request.password,
          RequirePrivacy: request.requirePrivacy,
          Replace: request.replace,
        },
        { secrets: ["Password"] },
      );
    },
    async removeMapping(shareRoot: string): Promise<boolean> {
      return parseRemoved(await shell.run(removeMappingScript, { ShareRoot: shareRoot }));
    },
    async listMappings(): Promise<SmbMappingInfo[]> {
      return parseMappingList(await shell.run(listMappingsScript));
    },
  };
}
