import type { Metafile } from "esbuild";

export declare const serverDir: string;
export declare function rewriteModule(source: string, path: string): string;
export declare function bundleServer(outfile: string): Promise<Metafile>;
export declare function runtimeFiles(koffiNode: string): { name: string; path: string }[];
