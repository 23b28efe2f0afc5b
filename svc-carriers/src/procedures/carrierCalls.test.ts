import { CARRIER_MESSAGES, CdekOrderCreateInput } from '@caravan/contracts';
import { cdekDraftOf } from './carrierCalls';

const order = {
  id: 501,
  title: 'Кроссовки',
  weight: null,
  total_price_rur: '15000.00',
  delivery_data: {
    title: 'Иванов Иван',
    contact_phone: '+79991234567',
    city: 'Москва',
    address: 'Тверская, 1',
  },
};
const noChoices = CdekOrderCreateInput.parse({ client_order_id: 501 });

describe('the CDEK waybill draft of an order', () => {
  it('weighs 1 gram and holds 1 piece when the order names no weight', () => {
    const draft = cdekDraftOf(order, noChoices);
    expect(draft.packages[0]!.weight_grams).toBe(1);
    expect(draft.packages[0]!.items[0]).toMatchObject({ amount: 1, weight_grams: 1, cost: '15000.00' });
  });

  it("takes the order's weight in grams", () => {
    expect(cdekDraftOf({ ...order, weight: '2.5' }, noChoices).packages[0]!.weight_grams).toBe(2500);
  });

  it('sends to the address with the door tariff, or to the pickup point with the point tariff', () => {
    const toDoor = cdekDraftOf(order, noChoices);
    expect(toDoor).toMatchObject({
      delivery_point: null,
      to_location: { city: 'Москва', address: 'Тверская, 1' },
    });
    const toPoint = cdekDraftOf(
      { ...order, delivery_data: { ...order.delivery_data, delivery_point_code: 'MSK123' } },
      noChoices,
    );
    expect(toPoint).toMatchObject({ delivery_point: 'MSK123', to_location: null });
    expect(toPoint.tariff_code).not.toBe(toDoor.tariff_code);
  });

  it('names the recipient from the delivery data and keeps the tariff chosen in the dialog', () => {
    const draft = cdekDraftOf(
      order,
      CdekOrderCreateInput.parse({ client_order_id: 501, order_data: { tariff_code: 233 } }),
    );
    expect(draft.recipient).toEqual({ name: 'Иванов Иван', phone: '+79991234567' });
    expect(draft.tariff_code).toBe(233);
  });

  it('is refused in words without a recipient title', () => {
    expect(() => cdekDraftOf({ ...order, delivery_data: { city: 'Москва' } }, noChoices)).toThrow(
      CARRIER_MESSAGES.waybillDraftNeedsTitle,
    );
  });
});
