// The shared singletons (ARCHITECTURE §8), read both by the webpack configs (their names) and by the
// shell in the browser (how to load each one when a remote asks for it). Each import is written out
// so that webpack bundles it.
const SHARED_LOADERS = {
  react: () => import('react'),
  'react-dom': () => import('react-dom'),
  'react-router-dom': () => import('react-router-dom'),
  '@reduxjs/toolkit': () => import('@reduxjs/toolkit'),
  'react-redux': () => import('react-redux'),
  '@blueprintjs/core': () => import('@blueprintjs/core'),
  i18next: () => import('i18next'),
  'react-i18next': () => import('react-i18next'),
  '@caravan/ui-kit': () => import('@caravan/ui-kit'),
  '@caravan/contracts': () => import('@caravan/contracts'),
  '@caravan/slots': () => import('@caravan/slots'),
};

module.exports = { SHARED_LOADERS };
