const { createConfig } = require('@caravan/mf-kit');

module.exports = createConfig({ name: 'shell', dir: __dirname, title: 'Caravan' });
