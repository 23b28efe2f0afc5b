import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfirmDialog } from './ConfirmDialog';

const open = (over: Partial<Parameters<typeof ConfirmDialog>[0]> = {}) => {
  const props = {
    isOpen: true,
    text: 'Удалить запись?',
    confirmText: 'удалить',
    onConfirm: jest.fn(),
    onCancel: jest.fn(),
    ...over,
  };
  render(<ConfirmDialog {...props} />);
  return props;
};

test('asks the question and confirms only on the confirm button', async () => {
  const props = open();
  const dialog = await screen.findByRole('alertdialog');
  expect(dialog).toHaveTextContent('Удалить запись?');
  await userEvent.click(screen.getByRole('button', { name: 'отмена' }));
  expect(props.onCancel).toHaveBeenCalledTimes(1);
  expect(props.onConfirm).not.toHaveBeenCalled();
  await userEvent.click(screen.getByRole('button', { name: 'удалить' }));
  expect(props.onConfirm).toHaveBeenCalledTimes(1);
});

test('shows nothing while closed', () => {
  open({ isOpen: false });
  expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
});
