import { screen, waitFor } from '@testing-library/react';
import { toast } from './toaster';

test('the same message shown two or three times at once is one toast', async () => {
  await Promise.all([toast('изменения сохранены', 'success'), toast('изменения сохранены', 'success')]);
  await toast('изменения сохранены', 'success');
  await toast('не заполнено поле: название', 'warning');
  await waitFor(() => expect(screen.getByText('не заполнено поле: название')).toBeInTheDocument());
  expect(screen.getAllByText('изменения сохранены')).toHaveLength(1);
});
