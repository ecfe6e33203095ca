/**
 * How a failure message repeats its prefix, if it does: its method named twice (the issue's
 * `startService(MSiSCSI) failed: startService(MSiSCSI): …`), or `failed:` said twice (a group's
 * `op failed: ` around a script's own `script failed: `). A script name (`system.startService`)
 * is not the method's prefix. Undefined when the message says each once.
 */
export function repeatedPrefix(method: string, message: string): string | undefined {
  const named = message.match(new RegExp(`(?<![\\w.])${method}(?!\\w)`, "g"))?.length ?? 0;
  if (named > 1) return `names ${method} ${named} times`;
  const failed = message.match(/\bfailed:/g)?.length ?? 0;
  if (failed > 1) return `says "failed:" ${failed} times`;
  return undefined;
}
