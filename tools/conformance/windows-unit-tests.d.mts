export declare const platformNeutralMarker: string;
export declare const reviewedPlatformNeutral: Readonly<Record<string, string>>;
export declare function linuxOnlyReason(name: string, text: string): string | undefined;
export declare function windowsUnitTests(
  packagesDir: string,
): { dir: string; files: string[]; skipped: { file: string; reason: string }[] }[];
