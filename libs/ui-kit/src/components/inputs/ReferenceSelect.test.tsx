import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { listOf, renderInWorld } from '../../testing';
import { ReferenceSelect } from './ReferenceSelect';

const types = [
  { id: 1, title: 'Игрушки' },
  { id: 2, title: 'Обувь' },
  { id: 3, title: 'Одежда и обувь' },
];

/** The select in a form that shows what was chosen. */
function Form() {
  const [value, setValue] = useState<number | null>(null);
  return (
    <>
      <ReferenceSelect entity="logistic_product_type" value={value} onChange={setValue} />
      <output data-testid="chosen">{value ?? '—'}</output>
    </>
  );
}

/** The server's search: held until `release()` so the test sees the list between typing and the answer. */
function slowSearch() {
  let release = () => {};
  const answered = new Promise<void>((resolve) => (release = resolve));
  const answer = async ({ search }: { search?: string }) => {
    if (!search) return listOf(types);
    await answered;
    return listOf(types.filter((t) => t.title.toLowerCase().includes(search.toLowerCase())));
  };
  return { answer, release };
}

it('says the list is busy from the typed search until its rows arrive, then picks the row clicked', async () => {
  const server = slowSearch();
  renderInWorld(<Form />, { answers: { logistic_product_type_list: server.answer } });
  await userEvent.click(screen.getByRole('button', { name: 'выбрать…' }));
  const menu = await screen.findByRole('menu');
  await waitFor(() => expect(menu).toHaveAttribute('aria-busy', 'false'));
  expect(
    within(menu)
      .getAllByRole('menuitem')
      .map((i) => i.textContent),
  ).toEqual(['Игрушки', 'Обувь', 'Одежда и обувь']);

  await userEvent.type(screen.getByRole('textbox', { name: 'поиск' }), 'обувь');
  // the old rows are still on screen, and the list says they are about to change
  expect(menu).toHaveAttribute('aria-busy', 'true');
  expect(within(menu).getAllByRole('menuitem')).toHaveLength(3);
  server.release();
  await waitFor(() => expect(menu).toHaveAttribute('aria-busy', 'false'));
  expect(
    within(menu)
      .getAllByRole('menuitem')
      .map((i) => i.textContent),
  ).toEqual(['Обувь', 'Одежда и обувь']);

  await userEvent.click(within(menu).getByRole('menuitem', { name: 'Одежда и обувь' }));
  expect(screen.getByTestId('chosen')).toHaveTextContent('3');
  await waitFor(() => expect(screen.queryByRole('menu')).not.toBeInTheDocument());
});
