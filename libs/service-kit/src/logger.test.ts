import { Writable } from 'node:stream';
import { createServer } from 'node:http';
import pinoHttp from 'pino-http';
import { createLogger, httpLogSerializers } from './logger';

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

it("never writes a URL's authToken to a service's request log", async () => {
  let written = '';
  const sink = new Writable({
    write(chunk, _encoding, done) {
      written += chunk.toString();
      done();
    },
  });
  const logged = pinoHttp({ logger: createLogger('test', 'info', sink), serializers: httpLogSerializers });
  const server = createServer((req, res) => {
    logged(req, res);
    res.end('ok');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await (await fetch(`http://127.0.0.1:${port}/api/sse?authToken=secret-token&x=1`)).text();
  await new Promise((r) => server.close(r));
  expect(written).toContain('/api/sse?authToken=***&x=1');
  expect(written).not.toContain('secret-token');
});
