/** The app's version, baked in by its build (libs/mf-kit: MF_BUILD_VERSION, else its package.json's). */
declare const __CARAVAN_APP_VERSION__: string;
