import { armFailure, FailureInjector, moscowLocal, ShipmentBook, TokenBucket } from './sandboxKit';

describe('the sandboxes’ rate limit', () => {
  it('lets `rps` calls through a second per account, then says how long to wait, then refills', () => {
    let now = 1_000_000;
    const bucket = new TokenBucket(2, () => now);
    expect([bucket.take('a'), bucket.take('a')]).toEqual([0, 0]);
    expect(bucket.take('a')).toBe(500);
    expect(bucket.take('b')).toBe(0);
    now += 500;
    expect(bucket.take('a')).toBe(0);
    expect(bucket.take('a')).toBe(500);
  });

  it('under one call a second still lets the first call through, then asks for the whole wait', () => {
    const bucket = new TokenBucket(0.01, () => 1_000_000);
    expect(bucket.take('a')).toBe(0);
    expect(bucket.take('a')).toBe(100_000);
  });
});

describe('failure injection', () => {
  it('fails the next `times` calls, then none', () => {
    const failures = new FailureInjector();
    expect(failures.take()).toBeNull();
    failures.set('500', 2);
    expect([failures.take(), failures.take(), failures.take()]).toEqual(['500', '500', null]);
  });

  it('is armed by the body of /sandbox/fail, once by default; a mode it does not know is refused', () => {
    const failures = new FailureInjector();
    expect(armFailure(failures, { mode: 'timeout' })).toEqual({ mode: 'timeout', times: 1 });
    expect([failures.take(), failures.take()]).toEqual(['timeout', null]);
    expect(() => armFailure(failures, { mode: '503', times: 1 })).toThrow(
      'mode: 500 | 429 | timeout | malformed; times: целое число',
    );
    expect(() => armFailure(failures, { mode: '500', times: -1 })).toThrow('times: целое число');
  });
});

describe('the shipments of a sandbox', () => {
  const book = () =>
    new ShipmentBook(
      ['a', 'b', 'c'],
      ['a', 'b', 'c', 'x', 'lost'],
      ['c', 'lost'],
      (n) => /^\d{3}$/.test(n),
      () => '123',
      () => new Date('2026-11-24T14:40:05Z'),
    );

  it('moves along the sequence to the end and no further', () => {
    const b = book();
    b.create();
    expect(b.current(b.advance('123'))).toBe('b');
    expect(b.current(b.advance('123'))).toBe('c');
    expect(() => b.advance('123')).toThrow('груз 123 уже доставлен');
  });

  it('jumps to a named status; off the sequence the next is the last; finals stay', () => {
    const b = book();
    b.create('555');
    expect(b.current(b.advance('555', 'x'))).toBe('x');
    expect(b.current(b.advance('555'))).toBe('c');
    b.create('556', 'lost');
    expect(b.nextOf('lost')).toBeNull();
    expect(() => b.advance('555', 'nonsense')).toThrow('неизвестный статус: nonsense');
  });

  it('refuses a malformed or repeated number', () => {
    const b = book();
    expect(() => b.create('12')).toThrow('неверный номер груза: 12');
    b.create('777');
    expect(() => b.create('777')).toThrow('груз 777 уже есть');
  });

  it('writes Moscow wall-clock time', () => {
    expect(moscowLocal(new Date('2026-11-24T22:40:05Z'))).toBe('2026-11-25T01:40:05');
  });
});
