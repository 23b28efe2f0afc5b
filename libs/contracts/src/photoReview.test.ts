import { photosAwaitReview, PositionPhotoReviewParams, type PhotoReview } from './photoReview';
import { orderTimeline } from './timeline';

const photo = (file: string, deleted = false) => ({ file, deleted });
const review = (files: string[], answer: PhotoReview['answer'] = 'accepted'): PhotoReview => ({
  answer,
  comment: answer === 'more' ? 'сбоку' : '',
  files,
  at: '2026-11-20T10:00:00.000Z',
  user_id: 3,
});

test('photos wait for the client until answered; a new photo asks again; deleted ones do not count', () => {
  expect(photosAwaitReview([], null)).toBe(false);
  expect(photosAwaitReview([photo('a')], null)).toBe(true);
  expect(photosAwaitReview([photo('a'), photo('b', true)], review(['a']))).toBe(false);
  expect(photosAwaitReview([photo('a'), photo('c')], review(['a']))).toBe(true);
});

test('asking for more photos needs words about which', () => {
  const parsed = PositionPhotoReviewParams.safeParse({ id: 1, answer: 'more', comment: '  ' });
  expect(parsed.success || parsed.error.issues.map((i) => i.message)).toEqual(['напишите, какие фото нужны']);
  expect(PositionPhotoReviewParams.parse({ id: 1, answer: 'accepted' })).toEqual({
    id: 1,
    answer: 'accepted',
    comment: '',
  });
});

test("the client's answer is a line of the timeline; other option changes are not", () => {
  const row = (old_value: unknown, new_value: unknown) => ({
    table_name: 'client_order_position' as const,
    item_id: 5,
    position_title: 'Кроссовки',
    user_id: 3,
    user_full_name: 'Пётр',
    datetime: '2026-11-20T10:00:00.000Z',
    field: 'options',
    old_value,
    new_value,
  });
  const lines = orderTimeline(
    [
      row({ unconfirmed_data: [] }, { unconfirmed_data: ['weight'] }),
      row({}, { photo_review: review(['a'], 'more') }),
      row({ photo_review: review(['a'], 'more') }, { photo_review: review(['a'], 'more'), cnt_data: {} }),
    ],
    [],
    { user_id: 3, staff: false },
  );
  expect(lines.map((l) => [l.kind, l.text, l.who])).toEqual([
    ['photos', 'нужны ещё фото позиции «Кроссовки»: сбоку', 'вы'],
  ]);
});
