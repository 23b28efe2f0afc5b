import type { ShipmentDraft } from '../carrier';
import { isoDateTime, isUuid, orderRequestOf, statusesOldestFirst } from './mapping';

describe('isoDateTime', () => {
  it.each([
    ['2020-08-10T21:32:12+0700', '2020-08-10T21:32:12+07:00'],
    ['2026-11-24T17:37:41.123-0230', '2026-11-24T17:37:41.123-02:30'],
    ['2026-11-24T17:37:41+03:00', '2026-11-24T17:37:41+03:00'],
    ['2026-11-24T14:37:41Z', '2026-11-24T14:37:41Z'],
    ['2026-11-24T17:37:41', '2026-11-24T17:37:41+03:00'],
  ])('%s → %s', (cdek, iso) => expect(isoDateTime(cdek)).toBe(iso));
});

describe('statusesOldestFirst', () => {
  it('turns CDEK’s newest-first list around, keeping statuses of the same second in the order they happened', () => {
    const statuses = statusesOldestFirst([
      {
        code: 'RECEIVED_AT_SHIPMENT_WAREHOUSE',
        name: '',
        date_time: '2026-11-24T12:00:00+0300',
        city: 'Москва',
      },
      { code: 'CREATED', name: '', date_time: '2026-11-24T10:00:00+0300' },
      { code: 'ACCEPTED', name: '', date_time: '2026-11-24T10:00:00+0300' },
    ]);
    expect(statuses.map((s) => s.vendor_status)).toEqual([
      'ACCEPTED',
      'CREATED',
      'RECEIVED_AT_SHIPMENT_WAREHOUSE',
    ]);
    expect(statuses[0]?.city).toBeNull();
    expect(statuses[2]?.city).toBe('Москва');
  });

  it('puts a status CDEK listed out of place where its time says, across time zones', () => {
    const statuses = statusesOldestFirst([
      // 09:30 in Novosibirsk (+07) is 05:30 in Moscow: after 05:00 Moscow
      { code: 'ACCEPTED_IN_RECIPIENT_CITY', name: '', date_time: '2026-11-25T09:30:00+0700' },
      { code: 'SENT_TO_RECIPIENT_CITY', name: '', date_time: '2026-11-25T05:00:00+0300' },
      { code: 'TAKEN_BY_COURIER', name: '', date_time: '2026-11-25T12:00:00+0700' },
    ]);
    expect(statuses.map((s) => s.vendor_status)).toEqual([
      'SENT_TO_RECIPIENT_CITY',
      'ACCEPTED_IN_RECIPIENT_CITY',
      'TAKEN_BY_COURIER',
    ]);
  });
});

it('tells uuids from CDEK numbers', () => {
  expect(isUuid('72753031-2801-4186-a091-0be58cedfee7')).toBe(true);
  expect(isUuid('1106321645')).toBe(false);
});

describe('orderRequestOf', () => {
  const draft: ShipmentDraft = {
    reference: '4512',
    tariff_code: 136,
    recipient: { name: 'Петров Пётр', phone: '+79990000000' },
    delivery_point: 'NSK27',
    to_location: { city: 'Новосибирск', address: 'не для ПВЗ' },
    packages: [
      {
        number: '1',
        weight_grams: 1500,
        items: [
          {
            name: 'Куртка',
            ware_key: 'A1',
            cost: '4999.90',
            amount: 2,
            weight_grams: 700,
            payment: '1250.50',
          },
        ],
      },
    ],
    comment: 'хрупкое',
  };

  it('an e-shop order carries our reference, the pickup point only, and money as CDEK’s numbers', () => {
    const body = orderRequestOf(draft, 1);
    expect(body).toMatchObject({
      type: 1,
      number: '4512',
      tariff_code: 136,
      delivery_point: 'NSK27',
      comment: 'хрупкое',
      recipient: { name: 'Петров Пётр', phones: [{ number: '+79990000000' }] },
    });
    expect(body.to_location).toBeUndefined();
    expect(body.packages[0]?.items?.[0]).toEqual({
      name: 'Куртка',
      ware_key: 'A1',
      cost: 4999.9,
      payment: { value: 1250.5 },
      weight: 700,
      amount: 2,
    });
  });

  it('a delivery order has neither our number nor cash on delivery', () => {
    const body = orderRequestOf({ ...draft, delivery_point: null }, 2);
    expect(body.number).toBeUndefined();
    expect(body.to_location).toEqual({ city: 'Новосибирск', address: 'не для ПВЗ' });
    expect(body.packages[0]?.items?.[0]?.payment).toEqual({ value: 0 });
  });
});
