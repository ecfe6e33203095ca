// Characters that end a host path in a message: Windows names hold none of them.
const pathEnd = /['"\n:]/;

/**
 * A status's details on the simulated node (`--simulate`) as they read on Windows: a host path
 * under the simulator's `root` becomes the Windows path a caller asked about
 * (`<root>/var/lib/kubelet/x` → `C:\var\lib\kubelet\x`), and a path through a held folder's
 * descriptor (`/proc/self/fd/<n>/x`) is left relative to that folder (`x`).
 */
export function simulatedDetails(details: string, root: string): string {
  const [head = "", ...rest] = details.split(root);
  const mapped = rest.map((part) => {
    const match = pathEnd.exec(part);
    const end = match === null ? part.length : match.index;
    // A name that only starts like the root (`<root>-other`) is no path of it.
    if (/^[^/\s'":]/.test(part)) return root + part;
    const path = part.slice(0, end).replaceAll("/", "\\");
    return `C:${path.startsWith("\\") ? path : `\\${path}`}${part.slice(end)}`;
  });
  return [head, ...mapped].join("").replace(/\/proc\/self\/fd\/\d+\//g, "");
}
