// The shell as a Module Federation host, set up at run time and only when the first remote is wanted:
// the login page carries no federation runtime. The shell provides every shared singleton from its
// own bundle (the remotes bring none in production) and hands the runtime to the remotes, whose
// remoteEntry is built without one (`experiments.externalRuntime`).
import { init } from '@module-federation/enhanced/runtime';
import provideRuntimeToRemotes from '@module-federation/inject-external-runtime-core-plugin';
import { SHARED_LOADERS } from './shared';

/* global __CARAVAN_SHARED_VERSIONS__ */
/** Filled in at build time by the webpack config: { [package]: { version, requiredVersion } }. */
const VERSIONS = __CARAVAN_SHARED_VERSIONS__;

/** What the shell provides and accepts of each singleton: remotes are checked against it before loading. */
export const SHARED_VERSIONS = VERSIONS;

let host = null;

/** The federation instance of the shell, created once. */
export function initHost(name) {
  host ??= init({
    name,
    remotes: [],
    shared: Object.fromEntries(
      Object.entries(SHARED_LOADERS).map(([pkg, load]) => [
        pkg,
        {
          version: VERSIONS[pkg].version,
          shareConfig: { singleton: true, requiredVersion: VERSIONS[pkg].requiredVersion },
          get: () => load().then((module) => () => module),
        },
      ]),
    ),
    plugins: [provideRuntimeToRemotes()],
  });
  return host;
}
