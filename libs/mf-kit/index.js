// One place for the Module Federation setup of the shell and every remote: the shared singletons
// and the webpack config they all build with. The shell provides the singletons and the federation
// runtime at run time (host.js); remotes consume them (docs/adr/0006-front-end-weight.md).
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');
const { DefinePlugin } = require('webpack');
// webpack's own minimizer plugin (its default, with terser), resolved from webpack: no second copy to pin
const MinimizerPlugin = require(
  require.resolve('minimizer-webpack-plugin', { paths: [require.resolve('webpack')] }),
);
const fs = require('node:fs');
const { PrecompressPlugin } = require('./precompress');
const { RecordedVersionsPlugin, sharedVersionOverrides } = require('./recorded-versions');
const { SHARED_LOADERS } = require('./shared');

const root = path.resolve(__dirname, '../..');

/** Shared as singletons between the shell and the remotes (ARCHITECTURE §8). */
const SHARED_SINGLETONS = Object.keys(SHARED_LOADERS);

/**
 * A remote's share config. In production it consumes only: the shell is the one provider, so the
 * remote builds no fallback copies of react-dom and the rest. On its own dev server it brings its
 * fallbacks, to run standalone.
 * @param {object} appPackageJson
 * @param {{ production?: boolean }} [build]
 */
function sharedSingletons(appPackageJson, { production = false } = {}) {
  const deps = { ...appPackageJson.dependencies };
  return Object.fromEntries(
    SHARED_SINGLETONS.map((name) => [
      name,
      {
        singleton: true,
        requiredVersion: deps[name] ?? false,
        strictVersion: false,
        ...(production ? { import: false } : {}),
      },
    ]),
  );
}

/** The version of a package as installed for an app (its package.json, found from its entry). */
function installedVersion(name, dir) {
  try {
    return require(require.resolve(`${name}/package.json`, { paths: [dir] })).version;
  } catch {
    /* a package whose `exports` hide its package.json: look up from its entry */
  }
  let at = path.dirname(require.resolve(name, { paths: [dir] }));
  for (; at !== path.dirname(at); at = path.dirname(at)) {
    const file = path.join(at, 'package.json');
    if (fs.existsSync(file) && JSON.parse(fs.readFileSync(file, 'utf8')).name === name)
      return JSON.parse(fs.readFileSync(file, 'utf8')).version;
  }
  throw new Error(`no package.json found for ${name} from ${dir}`);
}

/** What the shell registers for each singleton: the version it bundles and the range it wants. */
function hostSharedVersions(appPackageJson, dir) {
  const deps = { ...appPackageJson.dependencies };
  return Object.fromEntries(
    SHARED_SINGLETONS.map((name) => [
      name,
      { version: installedVersion(name, dir), requiredVersion: deps[name] ?? false },
    ]),
  );
}

/** Default ports: `npm start` serves each app from its own origin; dev servers use 3000+. */
const APPS = {
  shell: { port: 3000 },
  mf_orders: { port: 3001 },
  mf_wallet: { port: 3002 },
  mf_directories: { port: 3003 },
};

/**
 * @param {object} o
 * @param {string} o.name        federation name (shell, mf_orders, …)
 * @param {string} o.dir         the app folder
 * @param {Record<string,string>} [o.exposes]
 * @param {string} [o.title]     page title for the standalone / host page
 */
function createConfig(o) {
  return (_env, argv) => {
    const production = argv.mode !== 'development';
    const host = !o.exposes;
    // a remote's production build is its remoteEntry only: the standalone page is for its dev server
    const standalone = host || !production;
    const pkg = require(path.join(o.dir, 'package.json'));
    const gateway = process.env.GATEWAY_URL || 'http://127.0.0.1:8080';
    // what the build records in mf-manifest.json (the federation plugin reads MF_BUILD_VERSION too) and shows
    const version = process.env.MF_BUILD_VERSION || pkg.version;
    // a release built aside, to be copied to the remote's origin (docs/adr/0035-ship-one-remote.md)
    const outputPath = process.env.CARAVAN_WEB_OUT
      ? path.resolve(process.env.CARAVAN_WEB_OUT)
      : path.join(o.dir, 'dist');
    return {
      mode: production ? 'production' : 'development',
      context: o.dir,
      entry: standalone ? './src/index.ts' : {},
      devtool: production ? false : 'eval-cheap-module-source-map',
      output: {
        path: outputPath,
        publicPath: 'auto',
        uniqueName: o.name,
        // No hash in entry names: webpack 5.111 + enhanced 2.9 fail on it (module-federation/core#5077); chunks keep theirs.
        filename: '[name].js',
        chunkFilename: production ? '[name].[contenthash:8].js' : '[name].js',
        clean: true,
      },
      resolve: {
        extensions: ['.tsx', '.ts', '.js'],
        // Contracts' ESM source, not its CommonJS build: lets webpack tree-shake zod and its locales.
        alias: { '@caravan/contracts$': path.join(root, 'libs/contracts/src/index.ts') },
      },
      cache: { type: 'filesystem', cacheDirectory: path.join(root, 'node_modules/.cache/webpack', o.name) },
      module: {
        rules: [
          {
            test: /\.tsx?$/,
            exclude: /node_modules/,
            use: {
              loader: 'swc-loader',
              options: {
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  target: 'es2022',
                  transform: { react: { runtime: 'automatic', development: !production } },
                },
              },
            },
          },
          // Our libraries run no code on import (a module runs when its exports are used): importing one
          // function from the ui-kit or contracts barrel does not pull in the whole library.
          { test: /[\\/]libs[\\/](ui-kit|slots|contracts)[\\/]src[\\/].*\.tsx?$/, sideEffects: false },
          { test: /\.css$/, sideEffects: true, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
          { test: /\.(svg|png|jpe?g|gif|woff2?|ttf|eot)$/, type: 'asset' },
        ],
      },
      plugins: [
        new MiniCssExtractPlugin({ filename: production ? '[name].[contenthash:8].css' : '[name].css' }),
        // The page is served for every deep route: its scripts must be absolute, whatever output.publicPath is.
        standalone &&
          new HtmlWebpackPlugin({
            title: o.title ?? 'Caravan',
            template: path.join(__dirname, 'index.html'),
            publicPath: '/',
          }),
        new DefinePlugin({ __CARAVAN_APP_VERSION__: JSON.stringify(version) }),
        // The shell is a host at run time (./host.js): no federation plugin, so webpack splits and
        // tree-shakes its own copies of the shared libraries per route like in any other app.
        host &&
          new DefinePlugin({ __CARAVAN_SHARED_VERSIONS__: JSON.stringify(hostSharedVersions(pkg, o.dir)) }),
        !host &&
          new ModuleFederationPlugin({
            name: o.name,
            filename: 'remoteEntry.js',
            exposes: o.exposes,
            remotes: {},
            shared: sharedSingletons(pkg, { production }),
            manifest: true,
            dts: false,
            // the federation runtime comes once, from the shell (host.js)
            experiments: { externalRuntime: production, optimization: { target: 'web' } },
          }),
        !host && new RecordedVersionsPlugin(sharedVersionOverrides()),
        production && new PrecompressPlugin(),
      ].filter(Boolean),
      // SWC's minifier instead of terser: the same size within 0.5 %, half the CPU of a cold build (ADR 0032)
      optimization: {
        minimizer: [
          new MinimizerPlugin({
            minify: MinimizerPlugin.swcMinify,
            minimizerOptions: { compress: { passes: 2 }, mangle: true },
          }),
        ],
      },
      performance: { hints: false },
      stats: 'errors-warnings',
      devServer: {
        port: APPS[o.name]?.port,
        host: '127.0.0.1',
        historyApiFallback: true,
        headers: { 'Access-Control-Allow-Origin': '*' },
        proxy: [{ context: ['/api'], target: gateway, changeOrigin: true }],
        client: { overlay: { warnings: false, errors: true } },
      },
    };
  };
}

module.exports = { SHARED_SINGLETONS, sharedSingletons, hostSharedVersions, createConfig, APPS };
