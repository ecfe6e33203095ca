export declare const defaultOutput: string;
export declare function checkBlobMaker(version?: string): void;
export declare function seaConfig(
  main: string,
  blob: string,
  files: readonly { name: string; path: string }[],
  listFile: string,
): {
  main: string;
  output: string;
  disableExperimentalSEAWarning: boolean;
  useSnapshot: boolean;
  useCodeCache: boolean;
  assets: Record<string, string>;
};
export declare function packageWindowsExe(options?: {
  output?: string;
  log?: (line: string) => void;
}): Promise<string>;
