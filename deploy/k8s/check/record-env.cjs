// Preloaded (`node -r`) by deploy/k8s/check/run-locally.test.ts: appends to $CARAVAN_ENV_RECORD the name of
// every environment variable the process reads, so the test can check that its Deployment sets each one.
const fs = require('node:fs');

const file = process.env.CARAVAN_ENV_RECORD;
if (file) {
  const seen = new Set();
  process.env = new Proxy(process.env, {
    get(target, name) {
      if (typeof name === 'string' && !seen.has(name)) {
        seen.add(name);
        fs.appendFileSync(file, `${name}\n`);
      }
      return target[name];
    },
  });
}
