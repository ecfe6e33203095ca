/** Values that would run code if they were ever pasted into PowerShell text. */
export function hostileValues(canary: string): string[] {
  const payload = `New-Item -ItemType File -Force -Path '${canary}'`;
  const quotes = [
    "'",
    '"',
    "\u2018",
    "\u2019",
    "\u201a",
    "\u201b",
    "\u201c",
    "\u201d",
    "\u201e",
    "`",
  ];
  const values = [
    `$(${payload})`,
    `@(${payload})`,
    `'; ${payload}; '`,
    `"; ${payload}; "`,
    `\`"; ${payload}; \`"`,
    `x; ${payload}`,
    `x | ${payload}`,
    `x & ${payload}`,
    `x && ${payload}`,
    `x\n${payload}\n`,
    `x\r\n${payload}`,
    `--% ${payload}`,
    `\${env:PATH}$env:HOME$null`,
    "[*?]wild*card?[a-z]",
    "nul\u0000inside",
    "caf\u00e9 \u4e2d\u6587 \u0416 \ud83d\ude00 \u200b",
    "2020-01-01T00:00:00",
    "\\/Date(946684800000)\\/",
    "  padded  ",
    "",
    "C:\\var\\lib\\kubelet\\pods\\x",
    "\\\\?\\Volume{12345678-1234-1234-1234-123456789abc}\\",
    "x".repeat(100 * 1024),
  ];
  for (const quote of quotes)
    values.push(`${quote}; ${payload}; ${quote}`, `${quote}$(${payload})${quote}`);
  return values;
}
