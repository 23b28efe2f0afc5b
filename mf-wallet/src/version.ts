/**
 * This build's version, baked in by its build (MF_BUILD_VERSION or package.json): the wallet pages
 * show it, so support and whoever ships a release see which one a user runs.
 */
export const WALLET_VERSION: string =
  typeof __CARAVAN_APP_VERSION__ === 'string' ? __CARAVAN_APP_VERSION__ : 'dev';
