import type { Page } from '@playwright/test';
import { ADMIN, CLIENT, expect, login, ok, sentToRussia, test } from './support';

type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A 1×1 PNG: the warehouse's photo of a position. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

async function uploadImage(page: Page): Promise<string> {
  const token = await page.evaluate(() => window.localStorage.getItem('authToken'));
  const res = await page.request.post('/api/upload_image', {
    headers: { 'Auth-token': token ?? '' },
    multipart: { file: { name: 'склад.png', mimeType: 'image/png', buffer: PNG } },
  });
  const reply = (await res.json()) as Any;
  expect(reply.ok, reply.message).toBe(true);
  return reply.result[0].file as string;
}

/**
 * The order timeline (issue 19; docs/adr/0025-order-timeline.md): a client's order bought out, paid, received
 * at the warehouse and sent to Russia reads as a story on its card — the stage, the payment, the warehouse's
 * photo — and a photo added while the card is open appears without a reload.
 */
test('the client reads the order’s story on its card: stage, payment and a warehouse photo arriving live', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await login(page, CLIENT);
  const admin = await (await page.context().browser()!.newContext()).newPage();
  await login(admin, ADMIN);
  const orderId = await sentToRussia(page, admin);

  await page.goto(`/client_order/${orderId}`);
  const timeline = page.getByTestId('order-timeline');
  await expect(timeline.getByRole('listitem').filter({ hasText: 'заказ: отправлен в РФ' })).toBeVisible();
  await expect(timeline.getByRole('listitem').filter({ hasText: /^оплачено за товар: / })).toBeVisible();
  await expect(
    timeline.getByRole('listitem').filter({ hasText: 'на склад консолидации поступило 1 место' }).first(),
  ).toBeVisible();
  // the client never reads a staff member's name
  await expect(timeline).not.toContainText('Администратор');

  const position = (
    (await ok(admin, 'client_order_position_list', { client_order_id: orderId })).items as Any[]
  )[0];
  const photo = await uploadImage(admin);
  await ok(admin, 'client_order_position_update', {
    id: position.id,
    warehouse_images: [{ file: photo, deleted: false }],
  });
  const line = timeline
    .getByRole('listitem')
    .filter({ hasText: `1 фото со склада: позиция «${position.title}»` });
  await expect(line).toBeVisible();
  await expect(line.getByRole('link')).toHaveAttribute('href', photo);
  await expect(line.getByRole('img')).toHaveJSProperty('naturalWidth', 1);

  // the client answers the photos in the gallery; the answer joins the story
  const gallery = page.getByTestId('warehouse-photos').getByTestId(`photos-${position.id}`);
  await gallery.getByRole('button', { name: 'принять фото' }).click();
  await expect(gallery).toContainText('фото приняты');
  await expect(
    timeline.getByRole('listitem').filter({ hasText: `фото позиции «${position.title}» приняты` }),
  ).toBeVisible();
});
