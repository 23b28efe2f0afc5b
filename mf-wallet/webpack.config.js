const { createConfig } = require('@caravan/mf-kit');

module.exports = createConfig({
  name: 'mf_wallet',
  dir: __dirname,
  title: 'Caravan · кошельки',
  exposes: { './routes': './src/routes.tsx' },
});
