import { Writable } from 'node:stream';
import { createLogger } from './logger';

it('never writes session or identity tokens to the log', () => {
  let written = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      written += chunk.toString();
      done();
    },
  });
  const log = createLogger('test', 'info', sink);
  log.info(
    {
      req: {
        headers: { 'auth-token': 'secret-session', 'x-caravan-identity': 'secret-jwt', host: 'gateway' },
      },
    },
    'call',
  );
  expect(written).not.toMatch(/secret-/);
  expect(written).toContain('"auth-token":"[redacted]"');
  expect(written).toContain('"host":"gateway"');
});
