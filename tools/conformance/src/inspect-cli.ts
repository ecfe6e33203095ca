// `pnpm --filter @csi-proxy/conformance run inspect [IQN...]`: what this library sees on this
// node, through read-only methods only. Safe on a live node; prints JSON and writes
// results/inspect.json. CSI_CONFORMANCE_POWERSHELL picks the PowerShell (default powershell.exe).
import { Disk } from "@csi-proxy/disk";
import { createPowerShell } from "@csi-proxy/exec";
import { Iscsi } from "@csi-proxy/iscsi";
import { Smb } from "@csi-proxy/smb";
import { System } from "@csi-proxy/system";
import { Volume } from "@csi-proxy/volume";
import { inspect } from "./inspect.js";
import { writeResult } from "./results.js";

const executable = process.env.CSI_CONFORMANCE_POWERSHELL;
const shell = createPowerShell(executable === undefined || executable === "" ? {} : { executable });
try {
  const report = await inspect(
    {
      disk: new Disk({ shell }),
      volume: new Volume({ shell }),
      smb: new Smb({ shell }),
      iscsi: new Iscsi({ shell }),
      system: new System({ shell }),
    },
    process.argv.slice(2),
  );
  console.log(JSON.stringify(report, null, 2));
  console.error(`written to ${writeResult("inspect.json", report)}`);
} finally {
  await shell.close();
}
