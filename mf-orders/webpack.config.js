const { createConfig } = require('@caravan/mf-kit');

module.exports = createConfig({
  name: 'mf_orders',
  dir: __dirname,
  title: 'Caravan · заказы',
  exposes: { './routes': './src/routes.tsx' },
});
