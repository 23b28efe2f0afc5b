/**
 * The new-order dialog's texts for a client (orders-payments-calls §5 'New order dialog', product-core
 * §5): the 'оплата в СДЭК' choice (the delivery is paid at the carrier: delivery_payment_state in_cdek)
 * and the note that the positions' data is locked once the order is formed (§4 draft → created).
 */
export const NEW_ORDER_TEXTS = {
  payInCdek: 'оплата в СДЭК',
  // ours: the spec names the note, not its words
  positionsLocked:
    'после формирования заказа данные позиций будут заблокированы: изменить их сможет только оператор',
} as const;
