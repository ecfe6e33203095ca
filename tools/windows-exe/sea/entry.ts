// The executable's main script (bundled as CommonJS by bundle.mjs): the runtime files and hooks
// first, then the server's own bin, unchanged.
import "./setup.js";
import "../../../packages/server/dist/bin.js";
