import type { Browser } from '@playwright/test';
import { CLIENT, expect, login, ok, OPERATOR, test } from './support';

/**
 * A task's journey (issue 19, docs/adr/0023): the operator sets it on an order card through the
 * create dialog (the spec's refusals first), finds it in their task list, finishes it with a result
 * and a success rate; the client reads it, finished, on their order card.
 */
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function asUser(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, user);
  return page;
}

test('a task is set on an order, found in the list, finished, and read by the client', async ({
  browser,
}) => {
  const operator = await asUser(browser, OPERATOR);
  const client = await asUser(browser, CLIENT);
  const theirs = (await ok(operator, 'client_order_list', { per_page: 50 })).items as Any[];
  const mine = new Set(
    ((await ok(client, 'client_order_list', { per_page: 50 })).items as Any[]).map((o) => o.id),
  );
  const order = theirs.find((o) => mine.has(o.id));
  expect(order, 'a demo order of the client with the demo operator').toBeTruthy();
  const content = `уточнить адрес доставки ${Date.now()}`;

  await operator.goto(`/client_order/${order.id}`);
  const tasks = operator.getByTestId('order-tasks');
  await tasks.getByRole('button', { name: 'поставить задачу' }).click();
  const dialog = operator.getByRole('dialog', { name: 'новая задача' });
  await dialog.getByRole('button', { name: 'поставить задачу' }).click();
  for (const title of ['тип', 'срок', 'ответственный'])
    await expect(operator.getByText(`Поле "${title}" не заполнено`)).toBeVisible();

  await dialog.getByLabel('тип').selectOption({ label: 'связаться с клиентом' });
  await dialog.getByLabel('срок').fill('01-03-2049 10:30');
  // the demo operator is offered: svc-orders knows the seeded users (docs/adr/0023)
  await dialog.getByLabel('ответственный').selectOption({ label: 'Ли Вэй' });
  await dialog.getByLabel('содержание').fill(content);
  await dialog.getByRole('button', { name: 'поставить задачу' }).click();
  await expect(operator.getByText('задача поставлена')).toBeVisible();
  await expect(dialog).toBeHidden();
  const row = tasks.getByTestId('order-task').filter({ hasText: content });
  await expect(row).toContainText('01-03-2049 10:30');
  await expect(row).toContainText('Ли Вэй');

  // the operator's own list: their open tasks
  await operator.getByRole('navigation', { name: 'меню' }).getByRole('menuitem', { name: 'задачи' }).click();
  await expect(operator.getByTestId('list-scope-mine')).toBeVisible();
  await operator.getByRole('row').filter({ hasText: content }).click();
  await operator.getByTestId('task-finish').click();
  const finish = operator.getByRole('dialog', { name: 'завершение задачи: связаться с клиентом' });
  await finish.getByLabel('результат').fill('клиент подтвердил адрес');
  const rate = finish.getByRole('slider', { name: 'оценка успешности' });
  await rate.focus();
  for (let i = 0; i < 3; i++) await rate.press('ArrowRight');
  await expect(finish.getByText('Оценка успешности: 8')).toBeVisible();
  await finish.getByRole('button', { name: 'завершить' }).click();
  await expect(operator.getByText('задача завершена')).toBeVisible();
  await expect(operator.getByTestId('task-result')).toContainText(
    'клиент подтвердил адрес · Оценка успешности: 8',
  );

  // the client reads it on their order card, finished; they neither set nor finish tasks
  await client.goto(`/client_order/${order.id}`);
  const clientRow = client.getByTestId('order-task').filter({ hasText: content });
  await expect(clientRow.getByTestId('order-task-finished')).toContainText(
    'клиент подтвердил адрес · Оценка успешности: 8',
  );
  await expect(client.getByTestId('order-task-create')).toHaveCount(0);
});
