import path from 'node:path';
import { satisfy } from '@module-federation/enhanced/runtime';

type Manifest = { dependencies: Record<string, string> };
type Shared = Record<string, { requiredVersion: string | false }>;
const kit: {
  SHARED_SINGLETONS: string[];
  sharedSingletons: (pkg: Manifest, build?: { production?: boolean }) => Shared;
  hostSharedVersions: (pkg: Manifest, dir: string) => Record<string, { version: string }>;
} = require('./index');

/**
 * A remote ships alone (docs/adr/0034): it asks the shell for each shared library by the range in its own
 * package.json, and the shell it joins must bundle a version inside that range.
 */
const root = path.resolve(__dirname, '../..');
const manifest = (dir: string): Manifest => require(path.join(root, dir, 'package.json'));
const shell = kit.hostSharedVersions(manifest('shell'), path.join(root, 'shell'));

describe.each(['mf-orders', 'mf-wallet', 'mf-directories'])('%s', (remote) => {
  const declared = manifest(remote).dependencies;
  const asked = kit.sharedSingletons(manifest(remote), { production: true });

  it('asks for every shared library with the range its package.json declares', () => {
    for (const name of kit.SHARED_SINGLETONS) {
      expect({ name, asked: asked[name]!.requiredVersion }).toEqual({ name, asked: declared[name] });
    }
  });

  it('declares ranges, not pins, and the versions the shell bundles are inside them', () => {
    for (const name of kit.SHARED_SINGLETONS) {
      const range = declared[name] ?? '';
      expect({ name, range }).toEqual({ name, range: expect.stringMatching(/^[\^~]\d/) });
      expect({
        name,
        range,
        shell: shell[name]!.version,
        inside: satisfy(shell[name]!.version, range),
      }).toEqual({
        name,
        range,
        shell: shell[name]!.version,
        inside: true,
      });
    }
  });
});
