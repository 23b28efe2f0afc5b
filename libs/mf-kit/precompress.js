// Writes `<file>.br` and `<file>.gz` next to each text asset of a production build, so the servers
// send the smallest one the browser accepts without compressing on every request.
const { promisify } = require('node:util');
const zlib = require('node:zlib');

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text assets worth it; smaller files gain less than a round of header bytes. */
const COMPRESSIBLE = /\.(js|css|html|json|svg|txt|map)$/;
const MIN_BYTES = 1024;
/** A variant is written only when it is at most this share of the original. */
const MAX_RATIO = 0.8;

const VARIANTS = [
  {
    ext: '.br',
    compress: (buf) =>
      brotli(buf, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
          [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: buf.length,
        },
      }),
  },
  { ext: '.gz', compress: (buf) => gzip(buf, { level: zlib.constants.Z_BEST_COMPRESSION }) },
];

class PrecompressPlugin {
  apply(compiler) {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PrecompressPlugin', (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        // after every other plugin changed the assets (the MF manifest is written late)
        { name: 'PrecompressPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT },
        async (assets) => {
          const jobs = [];
          for (const [name, source] of Object.entries(assets)) {
            if (!COMPRESSIBLE.test(name)) continue;
            const buf = source.buffer();
            if (buf.length < MIN_BYTES) continue;
            const info = compilation.assetsInfo.get(name) ?? {};
            for (const v of VARIANTS)
              jobs.push(
                v.compress(buf).then((out) => {
                  if (out.length > buf.length * MAX_RATIO) return;
                  compilation.emitAsset(name + v.ext, new sources.RawSource(out), {
                    immutable: info.immutable,
                    compressed: true,
                    related: { sourceFile: name },
                  });
                }),
              );
          }
          await Promise.all(jobs);
        },
      );
    });
  }
}

module.exports = { PrecompressPlugin, COMPRESSIBLE };
