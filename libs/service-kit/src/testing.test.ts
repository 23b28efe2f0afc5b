import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { freePort } from './testing';

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const close = (server: Server) => new Promise((resolve) => server.close(resolve));

describe('freePort (the ports test files give their child processes)', () => {
  it('never hands out a port the kernel could give to another listen(0) or connection meanwhile', async () => {
    const [low = 0, high = 0] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    expect(high).toBeGreaterThan(low);
    const ports = [await freePort(), await freePort(), await freePort()];
    for (const port of ports) expect(port < low || port > high).toBe(true);
    expect(new Set(ports).size).toBe(3);
  });

  it('skips a port something already listens on', async () => {
    const probed = await freePort();
    // the next one in the slice is taken: freePort must step over it
    const taken = await listen(probed + 1);
    try {
      const next = await freePort();
      expect(next).not.toBe(probed + 1);
      const server = await listen(next);
      await close(server);
    } finally {
      await close(taken);
    }
  });
});
