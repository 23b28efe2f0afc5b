import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@caravan/service-kit';
import { ServiceProxy } from './proxy';

/**
 * The gateway's 503 when a service got the call and did not answer (issue 17): it promises 'действие не
 * будет выполнено дважды' only for a call under an Idempotency-Key; without one the action may have run.
 */
const servers: Server[] = [];
const listen = async (server: Server) => {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

async function callThroughAServiceThatDies(headers: Record<string, string>) {
  // the service reads the whole call, then its process dies: the connection drops with no answer
  const service = await listen(
    createServer((req) => {
      req.resume();
      req.on('end', () => req.socket.destroy());
    }),
  );
  const proxy = new ServiceProxy(createLogger('gateway-test', 'silent'));
  const front = await listen(
    createServer((req, res) => {
      proxy.forward(
        {
          base: new URL(service),
          method: 'POST',
          path: '/rpc',
          identityToken: undefined,
          requestId: 'r1',
          caller: req,
          body: Buffer.from('{"method":"wallet_transfer"}'),
        },
        res,
      );
    }),
  );
  const res = await fetch(`${front}/api/call_pg_func`, { method: 'POST', headers, body: '{}' });
  return { status: res.status, body: (await res.json()) as { ok: boolean; message: string } };
}

test('a call under an Idempotency-Key: retry, it will not run twice', async () => {
  expect(await callThroughAServiceThatDies({ 'idempotency-key': 'k-12345678' })).toEqual({
    status: 503,
    body: expect.objectContaining({
      ok: false,
      message: 'сервис не ответил; повторите попытку — действие не будет выполнено дважды',
    }),
  });
});

test('a call without one: no promise, check before repeating', async () => {
  expect(await callThroughAServiceThatDies({})).toEqual({
    status: 503,
    body: expect.objectContaining({
      ok: false,
      message: 'сервис не ответил; действие могло выполниться — проверьте результат, прежде чем повторять',
    }),
  });
});
