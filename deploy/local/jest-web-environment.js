// jsdom as jest's component environment, with the web platform's globals jsdom leaves out but a browser
// has (and the app uses): the encoders, fetch and its classes, streams, BroadcastChannel, structuredClone.
// Not MessageChannel: React's scheduler would take it and its open port keeps jest from exiting.
const { TestEnvironment } = require('jest-environment-jsdom');

const FROM_NODE = [
  'TextEncoder',
  'TextDecoder',
  'fetch',
  'Request',
  'Response',
  'Headers',
  'FormData',
  'Blob',
  'ReadableStream',
  'TransformStream',
  'WritableStream',
  'BroadcastChannel',
  'structuredClone',
  'AbortController',
  'AbortSignal',
];

module.exports = class WebEnvironment extends TestEnvironment {
  async setup() {
    await super.setup();
    for (const name of FROM_NODE)
      if (this.global[name] === undefined && globalThis[name] !== undefined)
        this.global[name] = globalThis[name];
  }
};
