import { existsSync, rmSync } from "node:fs";
import { ps } from "@csi-proxy/exec";
import { describeWithPwsh } from "@csi-proxy/test-utils";
import { expect, it } from "vitest";
import { canaryVariable, quoteChars } from "./corpus.js";
import { useProofHost } from "./proof-host.js";

// The mistake the ps tag rules out: a value pasted into script text and evaluated.
const naive = ps("proof.naive")`
param([string]$Before, [string]$Text, [string]$After)
Invoke-Expression ('Write-Output ' + $Before + $Text + $After)
`;

const command = `New-Item -ItemType File -Path $env:${canaryVariable}`;

/** Payloads and the quoting context of a naive interpolation they break out of. */
const live: [before: string, payload: string, after: string][] = [
  ["x", `$(${command})`, ""],
  ["x", `; ${command}`, ""],
  ["x", `| ${command}`, ""],
  ["x", `\n${command}\n`, ""],
  ['"', `$(${command})`, '"'],
  ...quoteChars.map((q): [string, string, string] => [q, `${q}; ${command}; ${q}`, q]),
];

describeWithPwsh("the canary is live: payloads run when a value is evaluated as code", (pwsh) => {
  const get = useProofHost(pwsh, {});

  it.each(live)(
    "after %j, payload %j runs under naive interpolation",
    async (before, text, after) => {
      const host = get();
      await host.shell
        .run(naive, { Before: before, Text: text, After: after })
        .catch(() => undefined);
      const created = existsSync(host.canary);
      rmSync(host.canary, { force: true });
      expect(created).toBe(true);
    },
  );
});
