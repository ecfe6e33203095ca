export declare function verdaccioConfig(storage: string, uplink: string): string;
export declare function movedVersions(
  before: Record<string, string | undefined>,
  after: Record<string, string | undefined>,
): string[];
export declare function withoutProvenance(repo: string): void;
