import { PEC_DELIVERED_STATUSES, PEC_TO_DOOR_STATUSES } from '@caravan/contracts';
import { pecDateTime, pecErrorMessage, pecMoney, pecStatusAt, toShipmentState } from './mapping';
import { PEC_SANDBOX_SEQUENCE } from './sandbox';

describe('PEC dates', () => {
  it('reads a zone-less date-time as Moscow time', () => {
    expect(pecDateTime('2026-11-24T17:40:05')).toBe('2026-11-24T17:40:05+03:00');
    expect(pecDateTime('2026-11-24 09:05')).toBe('2026-11-24T09:05:00+03:00');
    expect(Date.parse(pecDateTime('2026-11-24T17:40:05')!)).toBe(Date.parse('2026-11-24T14:40:05Z'));
  });

  it('keeps a zone PEC did write, keeps a plain day, drops what is not a date', () => {
    expect(pecDateTime('2026-11-24T14:40:05Z')).toBe('2026-11-24T14:40:05Z');
    expect(pecDateTime('2026-11-24T17:40:05+0500')).toBe('2026-11-24T17:40:05+05:00');
    expect(pecDateTime('2026-11-28')).toBe('2026-11-28');
    expect(pecDateTime('завтра')).toBeNull();
    expect(pecDateTime('')).toBeNull();
    expect(pecDateTime(null)).toBeNull();
  });

  it('the status time is the latest event of the cargo, or now before any', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    expect(
      pecStatusAt(
        {
          cargoStatus: 'Прибыл',
          takeOnStockDateTime: '2026-11-20T10:00:00',
          arrivalDateTime: '2026-11-23T08:30:00',
          deliveryPlanDate: '2026-11-30',
        },
        now,
      ),
    ).toBe('2026-11-23T08:30:00+03:00');
    expect(pecStatusAt({ cargoStatus: 'Оформлен' }, now)).toBe('2026-11-25T10:00:00.000Z');
  });
});

describe('PEC money and words', () => {
  it('services.sum becomes a money string, never a float', () => {
    expect(pecMoney(2450.5)).toBe('2450.50');
    expect(pecMoney('1 200,5'.replace(' ', ''))).toBe('1200.50');
    expect(pecMoney(0.1 + 0.2)).toBe('0.30');
    expect(pecMoney(undefined)).toBeNull();
    expect(pecMoney('много')).toBeNull();
  });

  it("a cargo becomes one state with its current status and the card's facts", () => {
    const state = toShipmentState(
      {
        cargo: { code: '123456789012' },
        info: {
          cargoStatus: 'Выдан получателю',
          receivedByClientDateTime: '2026-11-24T17:40:05',
          deliveryPlanDate: null,
        },
        services: { sum: 990 },
      },
      new Date(),
    );
    expect(state).toEqual({
      number: '123456789012',
      uuid: null,
      statuses: [{ vendor_status: 'Выдан получателю', status_at: '2026-11-24T17:40:05+03:00', city: null }],
      details: {
        cargoStatus: 'Выдан получателю',
        receivedByClientDateTime: '2026-11-24T17:40:05+03:00',
        deliveryPlanDate: null,
        services_sum: '990.00',
      },
    });
  });

  it("reads PEC's error envelope", () => {
    expect(pecErrorMessage({ error: { title: 'Forbidden', message: 'Неверный логин или ключ API' } })).toBe(
      'Неверный логин или ключ API',
    );
    expect(pecErrorMessage({ error: { title: 'Bad Request', fields: ['Не указаны коды'] } })).toBe(
      'Bad Request; Не указаны коды',
    );
    expect(pecErrorMessage({ cargos: [] })).toBeNull();
    expect(pecErrorMessage(undefined)).toBeNull();
  });

  it("the sandbox's sequence uses the texts of the contracts' lists", () => {
    const listed: readonly string[] = [...PEC_TO_DOOR_STATUSES, ...PEC_DELIVERED_STATUSES];
    for (const status of PEC_SANDBOX_SEQUENCE) expect(listed).toContain(status);
  });
});
