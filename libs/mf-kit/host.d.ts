import type { ModuleFederation } from '@module-federation/enhanced/runtime';

/** The federation instance of the shell, created once (see host.js). */
export function initHost(name: string): ModuleFederation;
