import { renderInvoiceHtml } from './html';
import {
  buildInvoice,
  contentDisposition,
  invoiceFileName,
  shareOut,
  type InvoiceOrder,
  type InvoicePosition,
  type InvoiceSources,
} from './model';

/** The invoice's lines as the document lists them (docs/adr/0012), worked out by hand. */
const seller = {
  id: 1,
  title: 'ООО «Восток»',
  title_full: '',
  inn: '7707083893',
  kpp: '770701001',
  address: 'г. Москва',
  director_name: 'Иванов И. И.',
  accountant_name: '',
};
const buyer = { ...seller, id: 2, title: 'ИП Соколов', inn: '500100732259', kpp: '', address: '' };
const bank = {
  id: 1,
  account_number: '40702810900000000001',
  bank_account_number: '30101810400000000225',
  bank_bik: '044525225',
  bank_title_full: '',
  bank_title_short: 'Сбербанк',
};
const order = (fields: Partial<InvoiceOrder> = {}): InvoiceOrder => ({
  id: 12,
  client_id: 1,
  operator_id: 2,
  title: '',
  buyout_type: 'operator',
  buyout_price_rur: null,
  ...fields,
});
const position = (id: number, fields: Partial<InvoicePosition> = {}): InvoicePosition => ({
  id,
  client_order_id: 12,
  title: `Товар ${id}`,
  amount: '1',
  ...fields,
});
const build = (src: Partial<InvoiceSources>) =>
  buildInvoice({
    orders: [order()],
    positions: [],
    operatorNdsRate: '0',
    seller,
    buyer,
    bank,
    date: '2026-05-05',
    ...src,
  });
const table = (lines: { title: string; quantity: string; price: string; sum: string }[]) =>
  lines.map((l) => [l.title, l.quantity, l.price, l.sum]);

describe('the lines of an invoice', () => {
  it('bills goods at their sale price when every position has one', () => {
    const invoice = build({
      orders: [order({ buyout_price_rur: '999.00' })],
      positions: [
        position(1, { amount: '3', sell_price_nds_rur: '120.50', buyout_price_rur: '100' }),
        position(2, { amount: '2.5', sell_price_nds_rur: '10', title_ru: 'Кружка' }),
      ],
    });
    expect(table(invoice.lines)).toEqual([
      ['Товар 1', '3.00', '120.50', '361.50'],
      ['Кружка', '2.50', '10.00', '25.00'],
    ]);
    expect(invoice.total).toBe('386.50');
  });

  it('shares an adjusted buyout out to the positions by their own buyout, to the kopeck', () => {
    const invoice = build({
      // the admin set the goods at 1000.00; the positions' own prices are equal
      orders: [order({ buyout_price_rur: '1000.00' })],
      positions: [1, 2, 3].map((id) =>
        position(id, { amount: '3', buyout_price_rur: '50.00', sell_price_nds_rur: id === 2 ? '1' : null }),
      ),
    });
    // 333.34 for 3 units does not divide: 2 at 111.11 and the last at 111.12 (price × quantity = sum)
    expect(table(invoice.lines)).toEqual([
      ['Товар 1', '2.00', '111.11', '222.22'],
      ['Товар 1', '1.00', '111.12', '111.12'],
      ['Товар 2', '3.00', '111.11', '333.33'],
      ['Товар 3', '3.00', '111.11', '333.33'],
    ]);
    expect(invoice.total).toBe('1000.00');
    expect(shareOut(100n, [1n, 1n, 1n])).toEqual([34n, 33n, 33n]);
    expect(shareOut(5n, [0n, 0n])).toEqual([0n, 0n]);
  });

  it('bills a buyout without priced positions as one line, and no goods when the client bought them', () => {
    expect(table(build({ orders: [order({ buyout_price_rur: '70' })] }).lines)).toEqual([
      ['Товары по заказу № 12', '1', '70.00', '70.00'],
    ]);
    const self = build({
      orders: [order({ buyout_type: 'self', buyout_price_rur: '70', to_door_delivery_price_rur: '5' })],
      positions: [position(1, { buyout_price_rur: '70' })],
    });
    expect(table(self.lines)).toEqual([['Доставка по РФ', '1', '5.00', '5.00']]);
  });

  it('puts services of several orders under each order, VAT from each order or the operator', () => {
    const invoice = build({
      orders: [
        order({ id: 14, to_ru_delivery_price_rur: '120', options: { price_info: { nds_rate: '10' } } }),
        order({ id: 12, to_ru_delivery_price_rur: '100', package_price_rur: '0.00' }),
      ],
      operatorNdsRate: '20',
    });
    expect(table(invoice.lines)).toEqual([
      ['Доставка до РФ (заказ № 12)', '1', '100.00', '100.00'],
      ['Доставка до РФ (заказ № 14)', '1', '120.00', '120.00'],
    ]);
    // 100 × 20/120 = 16.67; 120 × 10/110 = 10.91
    expect(invoice.vat).toEqual({ label: 'В том числе НДС:', amount: '27.58' });
    expect(invoice.basis).toBe('Заказы № 12, 14');
    expect(invoice.number).toBe('12, 14');
  });

  it("says 'Без НДС' at 0%, the words and the count, and the director signs for a missing accountant", () => {
    const invoice = build({ orders: [order({ title: 'Партия', to_door_delivery_price_rur: '1234.56' })] });
    expect(invoice.vat).toEqual({ label: 'Без НДС', amount: null });
    expect(invoice.heading).toBe('Счёт на оплату № 12 от 5 мая 2026 г.');
    expect(invoice.basis).toBe('Заказ № 12 «Партия»');
    expect(invoice.summary).toBe('Всего наименований 1, на сумму 1\u00a0234,56 руб.');
    expect(invoice.words).toBe('Одна тысяча двести тридцать четыре рубля 56 копеек');
    expect(invoice.accountant).toBe('Иванов И. И.');
    expect(invoice.bank.title).toBe('Сбербанк');
    expect(invoice.buyer.line).toBe('ИП Соколов, ИНН 500100732259');
  });
});

describe('the document', () => {
  it('escapes every text it shows', () => {
    const html = renderInvoiceHtml(
      build({
        orders: [order({ title: '"><script>alert(1)</script>', buyout_price_rur: '1' })],
        positions: [position(1, { title: '<img src=x onerror=alert(1)>', buyout_price_rur: '1' })],
        buyer: { ...buyer, title: "O'Reilly & Sons" },
      }),
    );
    expect(html).not.toMatch(/<script|<img/);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).toContain('O&#39;Reilly &amp; Sons');
  });

  it('is named after its orders and day, in UTF-8 and in ASCII', () => {
    const one = build({ orders: [order({ to_door_delivery_price_rur: '1' })] });
    expect(invoiceFileName(one, 'pdf')).toEqual({
      utf8: 'Счёт № 12 от 05.05.2026.pdf',
      ascii: 'invoice-12-2026-05-05.pdf',
    });
    const many = build({
      orders: [1, 2, 3, 4, 5].map((id) => order({ id, to_door_delivery_price_rur: '1' })),
    });
    expect(invoiceFileName(many, 'xlsx')).toEqual({
      utf8: 'Счёт № 1, 2, 3 и ещё 2 от 05.05.2026.xlsx',
      ascii: 'invoice-1-2-3-etc-2026-05-05.xlsx',
    });
    const header = contentDisposition({ utf8: "Счёт (копия) 'a'*!.pdf", ascii: 'a.pdf' });
    expect(header).toBe(
      `attachment; filename="a.pdf"; filename*=UTF-8''${encodeURIComponent('Счёт')}%20%28${encodeURIComponent('копия')}%29%20%27a%27%2A%21.pdf`,
    );
    expect(decodeURIComponent(header.split("UTF-8''")[1]!)).toBe("Счёт (копия) 'a'*!.pdf");
  });
});
