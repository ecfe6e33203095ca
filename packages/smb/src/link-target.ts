/**
 * The target written at `localPath`: the full remote path with a trailing `\`, as upstream
 * writes it (Windows resolves share-root links more reliably that way).
 */
export function linkTargetFor(remotePath: string): string {
  return `${remotePath}\\`;
}

/** Folds the forms one UNC target can be stored in (`\\?\UNC\`, `\??\UNC\`, `/`, case, trailing `\`). */
function foldTarget(target: string): string {
  return target
    .replaceAll("/", "\\")
    .replace(/^\\(?:\\\?|\?\?)\\UNC\\/i, "\\\\")
    .replace(/\\+$/, "")
    .toLowerCase();
}

/** Whether a stored link target points at `remotePath` (SMB paths compare case-insensitively). */
export function isSameTarget(stored: string, remotePath: string): boolean {
  return foldTarget(stored) === foldTarget(remotePath);
}
