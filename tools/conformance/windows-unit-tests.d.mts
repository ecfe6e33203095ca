export declare function windowsUnitTests(packagesDir: string): { dir: string; files: string[] }[];
