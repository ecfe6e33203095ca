import { createHash, randomInt, randomUUID } from "node:crypto";

/**
 * Where GUIDs come from with `ScenarioSpec.seed`: the seed and how many GUIDs were drawn. It is
 * kept in state.json (`SimState.seed`), so `New-Partition` draws the next ones from it.
 */
export interface GuidSeedState {
  /** The scenario's seed. */
  value: string;
  /** The index of the next GUID to draw. */
  next: number;
}

/**
 * The `n`th GUID of `seed`: the first 16 bytes of SHA-256(`<seed>:<n>`) as a version 4 GUID,
 * lower-case. `module/private/seed.ps1` computes the same, so both sides continue one sequence.
 */
export function seededGuid(seed: string, n: number): string {
  const bytes = createHash("sha256").update(`${seed}:${n}`, "utf8").digest().subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Draws a scenario's GUIDs and MBR signatures: from the seed's sequence, or at random without one. */
export class GuidSource {
  readonly #seed: GuidSeedState | undefined;

  constructor(seed?: string) {
    this.#seed = seed === undefined ? undefined : { value: seed, next: 0 };
  }

  /** A GUID without braces. */
  guid(): string {
    if (this.#seed === undefined) return randomUUID();
    return seededGuid(this.#seed.value, this.#seed.next++);
  }

  /** An MBR disk signature (nonzero, below 2^31), so MBR volume GUIDs are seeded too. */
  signature(): number {
    if (this.#seed === undefined) return randomInt(0x1000000, 0x7fffffff);
    return 0x1000000 + (parseInt(this.guid().slice(0, 8), 16) % (0x7fffffff - 0x1000000));
  }

  /** What state.json keeps of the sequence; undefined without a seed. */
  state(): GuidSeedState | undefined {
    return this.#seed === undefined ? undefined : { ...this.#seed };
  }
}
