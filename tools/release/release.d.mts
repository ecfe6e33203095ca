export declare function refusal(env: NodeJS.ProcessEnv): string | undefined;
export declare function releaseEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
export declare const steps: readonly (readonly [string, readonly string[]])[];
