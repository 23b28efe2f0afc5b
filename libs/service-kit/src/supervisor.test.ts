import { spawn } from 'node:child_process';
import { hasExited, restartDelay, Supervisor } from './supervisor';

const node = (code: string) => () => spawn(process.execPath, ['-e', code], { stdio: 'ignore' });
const FAST = { baseMs: 50, maxMs: 200, stableMs: 60_000 };
const until = async (what: () => boolean, timeoutMs = 5000) => {
  const deadline = Date.now() + timeoutMs;
  while (!what()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('npm start supervision', () => {
  it('doubles the pause between restarts up to its cap', () => {
    const b = { baseMs: 1000, maxMs: 30_000, stableMs: 60_000 };
    expect([0, 1, 2, 3, 4, 5, 6, 50].map((a) => restartDelay(a, b))).toEqual([
      1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000,
    ]);
  });

  it('counts a child killed by a signal as exited (its exitCode stays null)', async () => {
    const child = node('setInterval(() => {}, 1000)')();
    await new Promise((r) => child.once('spawn', r));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    expect(child.exitCode).toBeNull();
    expect(hasExited(child)).toBe(true);
  });

  it('restarts a crashed service with backoff and says so, instead of stopping everything', async () => {
    const lines: string[] = [];
    const supervisor = new Supervisor((l) => lines.push(l), FAST);
    let starts = 0;
    supervisor.run('svc-orders', () => {
      starts += 1;
      return node(starts < 3 ? 'process.exit(3)' : 'setInterval(() => {}, 1000)')();
    });
    await until(() => starts === 3);
    expect(lines).toEqual([
      'svc-orders exited (code 3); restarting in 0.1s (restart 1)',
      'svc-orders exited (code 3); restarting in 0.1s (restart 2)',
    ]);
    await supervisor.stop();
    expect(supervisor.children.every(hasExited)).toBe(true);
  });

  it('stops at once when a child was already killed by a signal, and cancels pending restarts', async () => {
    const lines: string[] = [];
    const supervisor = new Supervisor((l) => lines.push(l), { ...FAST, baseMs: 10_000, maxMs: 20_000 });
    const killed = supervisor.run('svc-payments', node('setInterval(() => {}, 1000)'));
    const alive = supervisor.run('gateway', node('setInterval(() => {}, 1000)'));
    await new Promise((r) => killed.once('spawn', r));
    killed.kill('SIGKILL');
    await until(() => lines.length === 1);
    expect(lines[0]).toBe('svc-payments exited (killed by SIGKILL); restarting in 10.0s (restart 1)');
    const t0 = Date.now();
    await supervisor.stop();
    expect(Date.now() - t0).toBeLessThan(5000);
    expect(hasExited(alive)).toBe(true);
    expect(supervisor.children).toEqual([killed, alive]);
  });
});
