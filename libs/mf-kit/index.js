// One place for the Module Federation setup of the shell and every remote: the shared singletons
// and the webpack config they all build with.
const path = require('node:path');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');

const root = path.resolve(__dirname, '../..');

/** Shared as singletons between the shell and the remotes (ARCHITECTURE §8). */
const SHARED_SINGLETONS = [
  'react',
  'react-dom',
  'react-router-dom',
  '@reduxjs/toolkit',
  'react-redux',
  '@blueprintjs/core',
  'i18next',
  'react-i18next',
  '@caravan/ui-kit',
  '@caravan/contracts',
];

function sharedSingletons(appPackageJson) {
  const deps = { ...appPackageJson.dependencies };
  return Object.fromEntries(
    SHARED_SINGLETONS.map((name) => [
      name,
      { singleton: true, requiredVersion: deps[name] ?? false, strictVersion: false },
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
    const pkg = require(path.join(o.dir, 'package.json'));
    const gateway = process.env.GATEWAY_URL || 'http://127.0.0.1:8080';
    return {
      mode: production ? 'production' : 'development',
      context: o.dir,
      entry: './src/index.ts',
      devtool: production ? false : 'eval-cheap-module-source-map',
      output: {
        path: path.join(o.dir, 'dist'),
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
          { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
          { test: /\.(svg|png|jpe?g|gif|woff2?|ttf|eot)$/, type: 'asset' },
        ],
      },
      plugins: [
        new MiniCssExtractPlugin({ filename: production ? '[name].[contenthash:8].css' : '[name].css' }),
        // The page is served for every deep route: its scripts must be absolute, whatever output.publicPath is.
        new HtmlWebpackPlugin({
          title: o.title ?? 'Caravan',
          template: path.join(__dirname, 'index.html'),
          publicPath: '/',
        }),
        new ModuleFederationPlugin({
          name: o.name,
          filename: 'remoteEntry.js',
          exposes: o.exposes ?? {},
          remotes: {},
          shared: sharedSingletons(pkg),
          manifest: true,
          dts: false,
        }),
      ],
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

module.exports = { SHARED_SINGLETONS, sharedSingletons, createConfig, APPS };
