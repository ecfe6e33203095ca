import type { PowerShellErrorRecord } from "./powershell-error.js";

// Which Windows module provides a command the scripts call; the first matching rule wins.
const providers: readonly (readonly [RegExp, string])[] = [
  [/-Smb/i, "SmbShare"],
  [/-Iscsi/i, "iSCSI"],
  [/-(Disk|Partition\w*|Volume\w*|HostStorageCache|PhysicalDisk|StorageSetting)$/i, "Storage"],
  [/-Service$/i, "Microsoft.PowerShell.Management"],
  [/-Cim/i, "CimCmdlets"],
];

/** The Windows module that provides `command`, when it is one the scripts rely on. */
export function moduleOf(command: string): string | undefined {
  return providers.find(([pattern]) => pattern.test(command))?.[1];
}

/**
 * When the record says a command does not exist on this host (PowerShell's
 * `CommandNotFoundException`, the command in `TargetName`), a message naming the missing module.
 */
export function missingCommandMessage(record: PowerShellErrorRecord): string | undefined {
  if (record.fullyQualifiedErrorId !== "CommandNotFoundException") return undefined;
  const command = record.targetName;
  const module = moduleOf(command);
  return module === undefined
    ? `The command ${command} is not available on this host.`
    : `The command ${command} is not available on this host: it needs the Windows PowerShell module ${module}, which is not installed.`;
}
