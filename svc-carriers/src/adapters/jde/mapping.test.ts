import { JDE_STATUSES, JDE_TO_DOOR_STATUSES } from '@caravan/contracts';
import { jdeDateTime, jdeDay, jdeErrorMessage, toShipmentState } from './mapping';
import { JDE_SANDBOX_SEQUENCE } from './sandbox';

describe('JDE dates', () => {
  it("reads JDE's zone-less date as Moscow time, with or without a fraction", () => {
    expect(jdeDateTime('2026-11-24 17:40:05')).toBe('2026-11-24T17:40:05+03:00');
    expect(jdeDateTime('2026-11-24 17:40:05.000000')).toBe('2026-11-24T17:40:05+03:00');
    expect(jdeDateTime('24.11.2026 17:40')).toBe('2026-11-24T17:40:00+03:00');
    expect(jdeDateTime('2026-11-24T14:40:05Z')).toBe('2026-11-24T14:40:05Z');
    expect(jdeDateTime('вчера')).toBeNull();
  });

  it('shows the day as DD.MM.YYYY as JDE wrote it', () => {
    expect(jdeDay('2026-11-25 01:10:00')).toBe('25.11.2026');
    expect(jdeDay('2026-11-25')).toBe('25.11.2026');
    expect(jdeDay('')).toBeNull();
  });

  it('a reply becomes one state with the raw and the formatted date', () => {
    const state = toShipmentState(
      '1234567890123456',
      { id: 42, status: 'OnRoad', date: '2026-11-24 17:40:05' },
      new Date(),
    );
    expect(state).toEqual({
      number: '1234567890123456',
      uuid: null,
      statuses: [{ vendor_status: 'OnRoad', status_at: '2026-11-24T17:40:05+03:00', city: null }],
      details: { id: 42, status: 'OnRoad', date: '24.11.2026', date_raw: '2026-11-24 17:40:05' },
    });
  });
});

describe('JDE words', () => {
  it('reads the error whichever shape it takes', () => {
    expect(jdeErrorMessage({ error: 'Неверный токен' })).toBe('Неверный токен');
    expect(jdeErrorMessage({ error: { code: 3, message: 'Нет доступа' } })).toBe('Нет доступа');
    expect(jdeErrorMessage({ errors: ['a', 'b'] })).toBe('a; b');
    expect(jdeErrorMessage({ id: 1 })).toBeNull();
  });

  it("the sandbox's sequence is JDE's statuses, every step but the last on the way to the door", () => {
    for (const status of JDE_SANDBOX_SEQUENCE) expect(JDE_STATUSES).toContain(status);
    expect(JDE_SANDBOX_SEQUENCE.slice(0, -1).every((s) => JDE_TO_DOOR_STATUSES.includes(s))).toBe(true);
  });
});
