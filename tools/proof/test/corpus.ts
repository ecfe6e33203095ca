import fc from "fast-check";

/** The environment variable every simulated PowerShell gets: the path a successful injection would create. */
export const canaryVariable = "CSI_PROOF_CANARY";

/** A one-letter alias of {@link canaryVariable}, so payloads fit short fields such as CHAP secrets. */
export const shortCanaryVariable = "Q";

/** Every quote PowerShell recognises: ASCII ' " and the typographic U+2018–U+201E it treats as quotes. */
export const quoteChars = [
  "'",
  '"',
  "\u2018",
  "\u2019",
  "\u201a",
  "\u201b",
  "\u201c",
  "\u201d",
  "\u201e",
];

// Commands that each create the canary file by a different route; none needs a slash or backslash.
const commands = [
  `New-Item -ItemType File -Path $env:${canaryVariable}`,
  `Set-Content -Path $env:${canaryVariable} -Value pwned`,
  `[IO.File]::WriteAllText($env:${canaryVariable}, 'pwned')`,
  `ni $env:${canaryVariable}`,
  `ni $env:${shortCanaryVariable}`,
];

// Ways to smuggle a command past a naive interpolation into a command line or a quoted string.
const wrappers: ((command: string) => string)[] = [
  (c) => `$(${c})`,
  (c) => `@(${c})`,
  (c) => `; ${c}`,
  (c) => `| ${c}`,
  (c) => `& { ${c} }`,
  (c) => `\n${c}\n`,
  (c) => `\r\n${c}`,
  (c) => `\`n${c}`,
  (c) => `--% ${c}`,
  (c) => `"$(${c})"`,
  (c) => `\${${c}}`,
  ...quoteChars.flatMap((q) => [
    (c: string) => `${q}; ${c}; ${q}`,
    (c: string) => `${q}+$(${c})+${q}`,
  ]),
];

/** Characters that mean something to PowerShell, the wildcard engine or a shell. */
const specialChars = [
  ...quoteChars,
  "`",
  "$",
  "(",
  ")",
  "@",
  "{",
  "}",
  ";",
  "|",
  "&",
  "\n",
  "\r",
  "[",
  "]",
  "*",
  "?",
  "%",
  "#",
  "<",
  ">",
  "-",
  " ",
  "\u00e9",
  "\u4e2d",
  "\u{1f600}",
  "\u0000",
];

/** A payload that runs a canary-creating command if any layer evaluates it. */
export const injection: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...wrappers), fc.constantFrom(...commands), fc.string({ maxLength: 6 }))
  .map(([wrap, command, tail]) => `${wrap(command)}${tail}`);

/** Hostile values: injections, runs of special characters, non-ASCII text and very long values. */
export const hostile: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: injection },
  {
    weight: 2,
    arbitrary: fc.string({ unit: fc.constantFrom(...specialChars), minLength: 1, maxLength: 40 }),
  },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(injection, fc.integer({ min: 2_000, max: 20_000 }))
      .map(([payload, length]) => payload.padEnd(length, "\u00e9x'")),
  },
);

/** `value` without NUL characters. */
export function withoutNul(value: string): string {
  return value.split("\u0000").join("");
}

/** `value` without control characters (below U+0020, and U+007F). */
export function withoutControl(value: string): string {
  return Array.from(value)
    .filter((char) => {
      const code = char.charCodeAt(0);
      return code >= 0x20 && code !== 0x7f;
    })
    .join("");
}

/** `value` with characters `reject` matches removed, so a payload survives a validator's character rules. */
export function without(reject: RegExp): (value: string) => string {
  return (value) => value.replace(reject, "");
}

/** At most `max` UTF-16 units of `value`, cut between code points so no lone surrogate remains. */
export function fit(max: number): (value: string) => string {
  return (value) => {
    let out = "";
    for (const point of value) {
      if (out.length + point.length > max) break;
      out += point;
    }
    return out;
  };
}

/** Payloads of at most 16 UTF-8 bytes, for fields Windows limits (CHAP secrets: 12–16 bytes). */
export const shortInjections: readonly string[] = [
  `$(ni $env:${shortCanaryVariable})`,
  `@(ni $env:${shortCanaryVariable})`,
  `;ni $env:${shortCanaryVariable};`,
  `|ni $env:${shortCanaryVariable}`,
  `\nni $env:${shortCanaryVariable}`,
  ...quoteChars.map((q) => `${q};ni $env:${shortCanaryVariable}`),
];

/** A value of 12 to 16 UTF-8 bytes made from `value`: cut between code points, padded with "x". */
export function chapSized(value: string): string {
  let out = "";
  for (const point of value) {
    if (Buffer.byteLength(out + point) > 16) break;
    out += point;
  }
  return out.padEnd(out.length + Math.max(0, 12 - Buffer.byteLength(out)), "x");
}

/** CHAP-sized hostile secrets. */
export const chapSecrets: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...shortInjections).map(chapSized),
  hostile.map((value) => chapSized(withoutNul(value))),
);
