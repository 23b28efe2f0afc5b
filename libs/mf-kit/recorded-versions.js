// A remote's mf-manifest.json records the version of each shared singleton it was built against (the
// installed package's); the shell checks them before loading it (docs/adr/0035-ship-one-remote.md).
// MF_SHARED_VERSIONS="@caravan/ui-kit=2.0.0,react=20.0.0" makes a build record those instead: a remote
// "built against" an incompatible library without publishing one, for e2e/shipOneRemote.spec.ts.

/** `package=version,…` as an object; throws on a pair that is not one. */
function sharedVersionOverrides(spec = process.env.MF_SHARED_VERSIONS ?? '') {
  return Object.fromEntries(
    spec
      .split(',')
      .map((pair) => pair.trim())
      .filter(Boolean)
      .map((pair) => {
        const at = pair.lastIndexOf('=');
        if (at <= 0 || at === pair.length - 1)
          throw new Error(`MF_SHARED_VERSIONS: "${pair}" is not package=version`);
        return [pair.slice(0, at), pair.slice(at + 1)];
      }),
  );
}

/** The manifest with the overridden packages' recorded versions replaced. */
function overrideRecordedVersions(manifest, overrides) {
  return {
    ...manifest,
    shared: manifest.shared.map((s) => (overrides[s.name] ? { ...s, version: overrides[s.name] } : s)),
  };
}

const MANIFESTS = ['mf-manifest.json', 'mf-stats.json'];

class RecordedVersionsPlugin {
  constructor(overrides) {
    this.overrides = overrides;
  }
  apply(compiler) {
    if (Object.keys(this.overrides).length === 0) return;
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('RecordedVersionsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        // after the federation plugin wrote its manifest, before the precompressed copies are made
        { name: 'RecordedVersionsPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_ANALYSE },
        (assets) => {
          for (const name of MANIFESTS) {
            if (!assets[name]) continue;
            const manifest = JSON.parse(assets[name].source().toString());
            const text = JSON.stringify(overrideRecordedVersions(manifest, this.overrides), null, 2);
            compilation.updateAsset(name, new sources.RawSource(text));
          }
        },
      );
    });
  }
}

module.exports = { sharedVersionOverrides, overrideRecordedVersions, RecordedVersionsPlugin };
