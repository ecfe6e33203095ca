/** The PowerShell version this repository tests against. */
export declare const pwshVersion: string;
/** Where the provisioned pwsh lives (whether or not it exists yet). */
export declare function provisionedPwshPath(): string;
/**
 * Returns the path of a working pwsh, installing it with `dotnet tool install` when missing.
 * Returns undefined (after printing one line saying what to install) where that is impossible.
 */
export declare function provisionPwsh(options?: { quiet?: boolean }): string | undefined;
