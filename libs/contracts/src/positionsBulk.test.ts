import {
  bulkEditFields,
  bulkStageProblems,
  joinOrderNumber,
  parseClipboardPositions,
  splitProblems,
  trimInvoiceRows,
} from './entities/positionsBulk';

describe('clipboard paste (spec §5)', () => {
  it('takes each line of a waybill, whitespace and a title, and skips the rest', () => {
    const text = [
      'YT1000000001 Кроссовки беговые',
      '',
      '   ',
      'итого пять посылок',
      'SF2000000003   Шапка вязаная  ',
      'JD3000000004\tШарф',
      'YT1000000005',
      'ABC-12 x',
    ].join('\r\n');
    expect(parseClipboardPositions(text)).toEqual([
      { waybill: 'YT1000000001', title: 'Кроссовки беговые' },
      { waybill: 'SF2000000003', title: 'Шапка вязаная' },
      { waybill: 'JD3000000004', title: 'Шарф' },
      { waybill: 'ABC-12', title: 'x' },
    ]);
  });

  it('recognises nothing in prose', () => {
    expect(parseClipboardPositions('добрый день\nвот список посылок')).toEqual([]);
  });
});

describe('the imported number joins the order number', () => {
  it.each([
    ['', '77', '77'],
    ['A-1', '77', 'A-1, 77'],
    ['A-1, 77', '77', 'A-1, 77'],
    ['A-1', '  ', 'A-1'],
  ])('%j + %j → %j', (current, imported, joined) => expect(joinOrderNumber(current, imported)).toBe(joined));
});

describe('split checks (spec §5)', () => {
  const rows = [
    { id: 1, amount: '4.00' },
    { id: 2, amount: null },
  ];
  it('refuses an empty choice, a zero and more than the amount, with the spec messages', () => {
    expect(splitProblems(rows, [])).toBe('выберите хотя бы одну позицию');
    expect(splitProblems(rows, [{ id: 1, amount: '0' }])).toBe('количество должно быть больше 0');
    expect(splitProblems(rows, [{ id: 1, amount: '4.01' }])).toBe('количество не может быть больше 4');
    expect(splitProblems(rows, [{ id: 2, amount: '1.5' }])).toBe('количество не может быть больше 1');
  });
  it('accepts a part and the whole', () => {
    expect(
      splitProblems(rows, [
        { id: 1, amount: '4' },
        { id: 2, amount: '0,5' },
      ]),
    ).toBeNull();
  });
});

describe('bulk stage change (spec §4)', () => {
  const rows = [
    { stage: 'buyout_done', waybill: 'YT1' },
    { stage: 'buyout_done', waybill: ' ' },
    { stage: 'warehouse_waiting', waybill: '' },
  ];
  it('counts only the positions in the source stage', () => {
    expect(bulkStageProblems(rows, 'warehouse_waiting', { receive_date: '2026-11-25' })).toEqual({
      affected: [0, 1],
      problem: 'необходимо указать waybill в 1 позициях',
    });
    expect(
      bulkStageProblems(rows, 'warehouse_received', { receive_record: { date: '2026-11-25', amount: 2 } }),
    ).toEqual({
      affected: [2],
      problem: null,
    });
  });
  it('needs a box count and a date for a receipt', () => {
    expect(
      bulkStageProblems(rows, 'warehouse_received', { receive_record: { date: '2026-11-25', amount: 0 } })
        .problem,
    ).toBe('не указано кол-во коробок');
    expect(bulkStageProblems(rows, 'warehouse_received', { receive_record: { amount: 1 } }).problem).toBe(
      'не указана дата',
    );
  });
});

describe('bulk edit and import rows', () => {
  it('sends only the non-empty fields', () => {
    expect(bulkEditFields({ waybill: '', type_id: 4, provider_id: null, link: 'wechat: shop' })).toEqual({
      type_id: 4,
      link: 'wechat: shop',
    });
  });
  it('trims the rows to edit and drops the untitled ones', () => {
    expect(
      trimInvoiceRows([
        { title: '  Кружка ', unit: ' шт ' },
        { title: '   ', unit: '' },
      ]),
    ).toEqual([{ title: 'Кружка', unit: 'шт' }]);
  });
});
