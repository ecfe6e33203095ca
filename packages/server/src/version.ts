import { createRequire } from "node:module";

/** This package's version, from its package.json (dist/ and src/ sit beside it). */
export const serverVersion: string = (
  createRequire(import.meta.url)("../package.json") as { version: string }
).version;
