const { createConfig } = require('@caravan/mf-kit');

module.exports = createConfig({
  name: 'mf_directories',
  dir: __dirname,
  title: 'Caravan · справочники',
  exposes: { './routes': './src/routes.tsx' },
});
