// A stylesheet imported by a component, under jest: nothing to apply in jsdom.
module.exports = {};
