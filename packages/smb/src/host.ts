import {
  noCallContext,
  type CallContext,
  type Params,
  type PowerShell,
  type RunOptions,
  type Script,
} from "@csi-proxy/exec";
import type {
  EnsureMappingRequest,
  MappingOutcome,
  SmbHost,
  SmbMappingInfo,
} from "./host-types.js";
import { parseMappingList, parseMappingOutcome, parseRemoved } from "./parse.js";
import { ensureMappingScript, listMappingsScript, removeMappingScript } from "./scripts.js";

/** Every script of this package, for audits and static checks. */
export const smbScripts = Object.freeze({
  /** Reuses a share root's working mapping, or replaces or creates it, in one script. */
  ensureMapping: ensureMappingScript,
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
  // Every script draws on the calling method's deadline; alone, a host call has none.
  function run(
    script: Script,
    params: Params | undefined,
    context: CallContext | undefined,
    extra?: RunOptions,
  ): Promise<unknown> {
    return shell.run(script, params, (context ?? noCallContext).runOptions(extra));
  }

  return {
    async ensureMapping(
      request: EnsureMappingRequest,
      context?: CallContext,
    ): Promise<MappingOutcome> {
      return parseMappingOutcome(
        await run(
          ensureMappingScript,
          {
            ShareRoot: request.shareRoot,
            UserName: request.username,
            Password: request.password,
            RequirePrivacy: request.requirePrivacy,
          },
          context,
          { secrets: ["Password"] },
        ),
      );
    },
    async removeMapping(shareRoot: string, context?: CallContext): Promise<boolean> {
      return parseRemoved(await run(removeMappingScript, { ShareRoot: shareRoot }, context));
    },
    async listMappings(context?: CallContext): Promise<SmbMappingInfo[]> {
      return parseMappingList(await run(listMappingsScript, undefined, context));
    },
  };
}
