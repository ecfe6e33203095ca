import { randomBytes } from "node:crypto";

const alphabet = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

function randomText(length: number): string {
  return [...randomBytes(length)].map((b) => alphabet[b % alphabet.length]).join("");
}

/** The secrets of one run: made fresh each time, never written to code, redacted in every log. */
export interface RunSecrets {
  /** The local SMB user's password: meets Windows' complexity rule (upper, lower, digit, symbol). */
  readonly smbPassword: string;
  /** One-way CHAP secrets: 12 to 16 bytes, as the Microsoft initiator demands without IPsec. */
  readonly chapSecret: string;
  readonly mutualTargetChapSecret: string;
  /** The initiator's mutual CHAP secret (the target's reverse CHAP secret), 12 to 16 bytes too. */
  readonly mutualSecret: string;
}

/** Fresh secrets for one run. */
export function generateSecrets(): RunSecrets {
  return {
    smbPassword: `Cp1-${randomText(16)}`,
    chapSecret: `c1${randomText(12)}`,
    mutualTargetChapSecret: `m1${randomText(12)}`,
    mutualSecret: `r1${randomText(12)}`,
  };
}

/** A short random tag that names this run's objects (user, share, targets, files). */
export function runTag(): string {
  return randomText(6).toLowerCase();
}
