import { PositionOptions } from './entities/order';
import {
  carrierStageMove,
  cdekLocksPayment,
  CDEK_STATUSES,
  CDEK_STATUS_TEXT,
  stageForCarrierStatus,
  STAGES_BEFORE_WAREHOUSE,
  waybillDraftPositionProblems,
  waybillNeedsRegistration,
} from './carriers';

describe('carrier statuses move an order (spec §4)', () => {
  it('maps each vendor as the spec lists', () => {
    expect(stageForCarrierStatus('cdek', 'DELIVERED')).toBe('client_received');
    expect(stageForCarrierStatus('cdek', 'TAKEN_BY_COURIER')).toBe('sent_to_door');
    expect(stageForCarrierStatus('cdek', 'SOMETHING_NEW')).toBe('sent_to_door');
    expect(stageForCarrierStatus('cdek', 'CREATED')).toBeNull();
    expect(stageForCarrierStatus('pec', 'Выдан получателю')).toBe('client_received');
    expect(stageForCarrierStatus('pec', 'Прибыл частично')).toBe('sent_to_door');
    expect(stageForCarrierStatus('pec', 'Оформлен')).toBeNull();
    expect(stageForCarrierStatus('jde', 'Delivered')).toBe('client_received');
    expect(stageForCarrierStatus('jde', 'OnRoad')).toBe('sent_to_door');
    expect(stageForCarrierStatus('jde', 'Lost')).toBeNull();
  });

  it('moves only forward and only once the goods left for Russia', () => {
    expect(carrierStageMove('sent_to_ru', 'sent_to_door')).toBe('sent_to_door');
    expect(carrierStageMove('sent_to_ru', 'client_received')).toBe('client_received');
    expect(carrierStageMove('client_received', 'sent_to_door')).toBeNull();
    expect(carrierStageMove('sent_to_door', 'sent_to_door')).toBeNull();
    expect(carrierStageMove('warehouse_received', 'client_received')).toBeNull();
    expect(carrierStageMove('sent_to_ru', null)).toBeNull();
  });

  it('locks the payment card in every CDEK status but ACCEPTED and CREATED', () => {
    expect(cdekLocksPayment(null)).toBe(false);
    expect(cdekLocksPayment('CREATED')).toBe(false);
    expect(cdekLocksPayment('ACCEPTED')).toBe(false);
    expect(cdekLocksPayment('RECEIVED_AT_SHIPMENT_WAREHOUSE')).toBe(true);
  });

  it('has words for every CDEK status', () => {
    for (const status of CDEK_STATUSES) expect(CDEK_STATUS_TEXT[status].label).toMatch(/[а-я]/);
  });
});

describe('a waybill is registered with the tracker (spec §4, §9)', () => {
  it('only when longer than 10 characters and not the one already tracked', () => {
    expect(waybillNeedsRegistration('1234567890', null)).toBe(false);
    expect(waybillNeedsRegistration('YT1234567890', null)).toBe(true);
    expect(waybillNeedsRegistration(' yt1234567890 ', 'YT1234567890')).toBe(false);
    expect(waybillNeedsRegistration('none', null)).toBe(false);
  });
});

describe("a position's link to an Ozon product (options.ozonData)", () => {
  it('takes the SKU as Ozon gives it (a number), a digits-only text as that number, and null to unlink', () => {
    const link = { sku: 1523094410, offer_id: 'CASE-IP15-BLK', quantity: 2 };
    expect(PositionOptions.parse({ ozonData: link }).ozonData).toEqual(link);
    expect(PositionOptions.parse({ ozonData: { ...link, sku: '1523094410' } }).ozonData).toEqual(link);
    expect(PositionOptions.parse({ ozonData: null }).ozonData).toBeNull();
    expect(PositionOptions.safeParse({ ozonData: { ...link, sku: 'CASE' } }).success).toBe(false);
  });
});

describe('waybillDraftPositionProblems (spec §4: positions are checked before a CDEK waybill)', () => {
  test('an order without positions has nothing to send', () => {
    expect(waybillDraftPositionProblems({ total: 0, notAtWarehouse: 0 })).toEqual(['в заказе нет позиций']);
  });
  test('positions not yet at the consolidation warehouse are counted', () => {
    expect(waybillDraftPositionProblems({ total: 3, notAtWarehouse: 2 })).toEqual([
      'позиций ещё не на складе консолидации: 2',
    ]);
  });
  test('the stages before the warehouse are those up to warehouse_waiting', () => {
    expect(STAGES_BEFORE_WAREHOUSE.at(-1)).toBe('warehouse_waiting');
    expect(STAGES_BEFORE_WAREHOUSE).not.toContain('warehouse_received');
  });
  test('goods at the warehouse or further may go', () => {
    expect(waybillDraftPositionProblems({ total: 2, notAtWarehouse: 0 })).toEqual([]);
  });
});
