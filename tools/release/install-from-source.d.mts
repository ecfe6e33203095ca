export declare function publishedPackageNames(repoRoot?: string): string[];
export declare function buildAndPackCommands(
  packDir: string,
  build?: boolean,
): [string, string[]][];
export declare function installCommand(
  tarballs: readonly string[],
  prefix: string | undefined,
): [string, string[]];
export declare function tarballsFor(packDir: string, names?: readonly string[]): string[];
