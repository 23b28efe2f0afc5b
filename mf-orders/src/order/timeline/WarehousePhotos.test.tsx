import { listOf, renderInWorld, USERS } from '@caravan/ui-kit/testing';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PHOTOS_UI, WarehousePhotos } from './WarehousePhotos';

/** The warehouse photos on the order card and the client's answer to them (issue 19, quality control). */
const position = (id: number, over: Record<string, unknown> = {}) => ({
  id,
  title: `Кроссовки ${id}`,
  warehouse_images: [{ file: `/api/files/${id}.jpg`, deleted: false }],
  options: { unconfirmed_data: [] },
  ...over,
});
const show = (rows: unknown[], user = USERS.client, answers = {}) =>
  renderInWorld(<WarehousePhotos orderId={40} />, {
    user,
    answers: {
      client_order_position_list: () => listOf(rows as object[]),
      client_order_position_photo_review: (p: Record<string, unknown>) =>
        p.answer === 'accepted' ? 'фото приняты' : 'просьба о новых фото передана оператору',
      ...answers,
    },
  });

test('the client accepts a position’s photos with one press', async () => {
  const { gateway } = show([position(1), position(2, { warehouse_images: [] })]);
  const card = await screen.findByTestId('warehouse-photos');
  expect(within(card).queryByTestId('photos-2')).not.toBeInTheDocument(); // no photos, nothing to show
  const one = within(card).getByTestId('photos-1');
  expect(one).toHaveTextContent(PHOTOS_UI.awaiting);
  expect(within(one).getByRole('link')).toHaveAttribute('href', '/api/files/1.jpg');
  await userEvent.click(within(one).getByRole('button', { name: PHOTOS_UI.accept }));
  expect(await screen.findByText('фото приняты')).toBeInTheDocument();
  expect(gateway.of('client_order_position_photo_review')[0]!.params).toEqual({
    id: 1,
    answer: 'accepted',
    comment: '',
  });
});

test('asking for more photos needs words about which, then goes to the operator', async () => {
  const { gateway } = show([position(1)]);
  await userEvent.click(await screen.findByRole('button', { name: PHOTOS_UI.more }));
  const dialog = await screen.findByRole('dialog', { name: PHOTOS_UI.moreTitle });
  await userEvent.click(within(dialog).getByRole('button', { name: PHOTOS_UI.send }));
  expect(await screen.findByText(`не заполнено поле: ${PHOTOS_UI.moreField}`)).toBeInTheDocument();
  expect(gateway.of('client_order_position_photo_review')).toHaveLength(0);
  await userEvent.type(within(dialog).getByRole('textbox'), 'снимите подошву');
  await userEvent.click(within(dialog).getByRole('button', { name: PHOTOS_UI.send }));
  expect(await screen.findByText('просьба о новых фото передана оператору')).toBeInTheDocument();
  await waitFor(() =>
    expect(gateway.of('client_order_position_photo_review')[0]!.params).toEqual({
      id: 1,
      answer: 'more',
      comment: 'снимите подошву',
    }),
  );
});

test('answered photos show the answer; a new photo asks again; staff see the state without buttons', async () => {
  const review = (files: string[]) => ({
    photo_review: { answer: 'more', comment: 'сбоку', files, at: '2026-11-20T10:00:00Z', user_id: 3 },
  });
  show(
    [
      position(1, { options: review(['/api/files/1.jpg']) }),
      position(2, { options: review(['/api/files/old.jpg']) }),
    ],
    USERS.operator,
  );
  const card = await screen.findByTestId('warehouse-photos');
  expect(within(card).getByTestId('photos-1')).toHaveTextContent(PHOTOS_UI.requested('сбоку'));
  expect(within(card).getByTestId('photos-2')).toHaveTextContent(PHOTOS_UI.awaitingStaff);
  expect(within(card).queryByRole('button')).not.toBeInTheDocument();
});
