import { BULK_MESSAGES, type InvoiceImport } from '@caravan/contracts';
import { postFormWithProgress } from '@caravan/ui-kit';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import '../../routes';
import { ExcelImportDialog } from './ExcelImportDialog';

const call = jest.fn(() => ({ unwrap: () => Promise.resolve({ count: 2 }) }));
jest.mock('../api', () => ({ useOrderCallMutation: () => [call] }));
jest.mock('@caravan/ui-kit', () => ({
  ...jest.requireActual('@caravan/ui-kit'),
  postFormWithProgress: jest.fn(),
  toast: jest.fn(),
}));

const mismatch = BULK_MESSAGES.importSumMismatch('9000.00', '3000', '3.25', '9750.00');
const reply: InvoiceImport = {
  number: 'YW-88',
  rows: [
    {
      title: 'Silicone case',
      amount: '1200',
      unit: '',
      price_no_nds: null,
      nds: null,
      price_nds: null,
      price_cny: '6.80',
    },
    {
      title: 'Type-C cable',
      amount: '3000',
      unit: '',
      price_no_nds: null,
      nds: null,
      price_nds: null,
      price_cny: '3.25',
    },
  ],
  columns: [
    { header: 'description 品名', target: 'title' },
    { header: "q'ty", target: 'amount' },
    { header: 'unit price (rmb)', target: 'price_cny' },
    { header: 'amount (rmb)', target: 'sum_cny' },
  ],
  flags: [{ row: 1, message: mismatch }],
};

test('shows where each column went and the rows whose sum disagrees, and imports the yuan price as price_cny', async () => {
  (postFormWithProgress as jest.Mock).mockResolvedValue({ ok: true, result: reply });
  render(<ExcelImportDialog orderId={7} onClose={jest.fn()} />);
  const dialog = await screen.findByRole('dialog');
  const file = new File([new Uint8Array([0x50, 0x4b, 3, 4])], 'PI.xlsx');
  fireEvent.change(within(dialog).getByLabelText('счёт поставщика (.xlsx, .xls)'), {
    target: { files: [file] },
  });

  expect(await within(dialog).findByTestId('import-mapping')).toHaveTextContent(
    "колонки файла: «description 品名» → название; «q'ty» → кол-во; «unit price (rmb)» → цена, ¥; «amount (rmb)» → сумма, ¥ (для проверки)",
  );
  expect(within(dialog).getByTestId('import-flags')).toHaveTextContent(`строка 2: ${mismatch}`);
  expect(within(dialog).getByTestId('import-row-2')).toHaveAttribute('data-flagged', 'true');
  expect(within(dialog).getByTestId('import-row-1')).not.toHaveAttribute('data-flagged');
  expect(within(dialog).getByLabelText('цена, ¥ 1')).toHaveValue('6.80');

  await userEvent.click(within(dialog).getByRole('button', { name: 'импортировать' }));
  expect(call).toHaveBeenCalledWith({
    method: 'client_order_position_import',
    params: expect.objectContaining({
      client_order_id: 7,
      order_number: 'YW-88',
      positions: [
        expect.objectContaining({ title: 'Silicone case', amount: '1200', price_cny: '6.80' }),
        expect.objectContaining({ title: 'Type-C cable', amount: '3000', price_cny: '3.25' }),
      ],
    }),
  });
});
