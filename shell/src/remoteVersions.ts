import { satisfy } from '@module-federation/enhanced/runtime';

/**
 * Whether a remote fits the running shell, decided from its mf-manifest.json before any of its code
 * runs (docs/adr/0035-ship-one-remote.md). The shell is the one provider of the shared singletons; a
 * remote built against a version of one outside the range the shell accepts, or needing a version
 * the shell does not have, is refused with its area's placeholder instead of breaking the page.
 */

/** What the shell provides: for each shared singleton the version it bundles and the range it accepts. */
export type HostShared = Record<string, { version: string; requiredVersion: string | false }>;

/** What a remote's manifest says of its build: its version and the singletons it was built against. */
export type RemoteBuild = {
  name: string;
  version: string;
  shared: { name: string; version: string; requiredVersion: string | false }[];
};

export type VersionConflict =
  /** the remote wants a singleton the shell does not provide */
  | { kind: 'unknown'; package: string }
  /** the remote was built against a version outside the shell's range */
  | { kind: 'built'; package: string; built: string; accepted: string }
  /** the remote requires a range the shell's copy is outside of */
  | { kind: 'needs'; package: string; needs: string; provided: string }
  /** configuration pins a version, and the remote's address serves another */
  | { kind: 'pinned'; pinned: string; found: string };

export type Refusal = { remote: string; version: string; conflicts: VersionConflict[] };

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/** The build facts of an mf-manifest.json, or null for anything that is not one. */
export function readRemoteBuild(manifest: unknown): RemoteBuild | null {
  if (typeof manifest !== 'object' || manifest === null) return null;
  const { metaData, shared, name } = manifest as Record<string, unknown>;
  const buildInfo = (metaData as { buildInfo?: Record<string, unknown> } | undefined)?.buildInfo;
  const version = text(buildInfo?.buildVersion);
  if (!version || !Array.isArray(shared)) return null;
  // '@caravan/mf-wallet' → 'mf-wallet': the name its team and its folder go by
  const buildName = text(buildInfo?.buildName) ?? text(name) ?? 'remote';
  return {
    name: buildName.replace(/^@[^/]+\//, ''),
    version,
    shared: shared.flatMap((s: Record<string, unknown>) => {
      const pkg = text(s?.name);
      const built = text(s?.version);
      return pkg && built
        ? [{ name: pkg, version: built, requiredVersion: text(s.requiredVersion) ?? false }]
        : [];
    }),
  };
}

/** The range the shell accepts for a singleton: its own declared range, else its version's caret range. */
const acceptedRange = (provided: HostShared[string]) => provided.requiredVersion || `^${provided.version}`;

/** Every reason the shell cannot take this build; none: it can. One reason per singleton at most. */
export function versionConflicts(build: RemoteBuild, host: HostShared, pinned?: string): VersionConflict[] {
  const conflicts: VersionConflict[] = [];
  if (pinned && build.version !== pinned) conflicts.push({ kind: 'pinned', pinned, found: build.version });
  for (const shared of build.shared) {
    const provided = host[shared.name];
    if (!provided) {
      conflicts.push({ kind: 'unknown', package: shared.name });
      continue;
    }
    const accepted = acceptedRange(provided);
    if (!satisfy(shared.version, accepted))
      conflicts.push({ kind: 'built', package: shared.name, built: shared.version, accepted });
    else if (shared.requiredVersion && !satisfy(provided.version, shared.requiredVersion))
      conflicts.push({
        kind: 'needs',
        package: shared.name,
        needs: shared.requiredVersion,
        provided: provided.version,
      });
  }
  return conflicts;
}

type Translate = (key: string, options?: Record<string, unknown>) => string;

/** A refusal in the user's language: one line per conflict, naming the remote and the versions. */
export const refusalLines = (t: Translate, refusal: Refusal): string[] =>
  refusal.conflicts.map((c) => {
    const about = { remote: refusal.remote, version: refusal.version };
    switch (c.kind) {
      case 'unknown':
        return t('remote.conflictUnknown', { ...about, package: c.package });
      case 'built':
        return t('remote.conflictBuilt', {
          ...about,
          package: c.package,
          built: c.built,
          accepted: c.accepted,
        });
      case 'needs':
        return t('remote.conflictNeeds', {
          ...about,
          package: c.package,
          needs: c.needs,
          provided: c.provided,
        });
      case 'pinned':
        return t('remote.conflictPinned', { ...about, pinned: c.pinned, found: c.found });
    }
  });
