// `pnpm -C tools/bench round-trips`: only the round-trip counts (no timing), printed as Markdown.
import { provisionPwsh } from "@csi-proxy/pwsh";
import { roundTripLines, roundTripVerdicts, table } from "./report.js";
import { measureRoundTrips } from "./round-trips.js";

const pwsh = provisionPwsh();
if (pwsh === undefined) process.exit(1);
const rt = await measureRoundTrips(pwsh);
const verdicts = roundTripVerdicts(rt);
console.log(
  [
    ...table(
      ["target", "measured", "result"],
      ["l", "l", "l"],
      verdicts.map((v) => [v.target, v.measured, v.pass ? "pass" : "**fail**"]),
    ),
    "",
    ...roundTripLines(rt),
  ].join("\n"),
);
