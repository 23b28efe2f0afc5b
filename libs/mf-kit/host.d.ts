import type { ModuleFederation } from '@module-federation/enhanced/runtime';

/** For each shared singleton: the version the shell bundles and the range it accepts (its package.json). */
export const SHARED_VERSIONS: Record<string, { version: string; requiredVersion: string | false }>;

/** The federation instance of the shell, created once (see host.js). */
export function initHost(name: string): ModuleFederation;
