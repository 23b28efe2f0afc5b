import type { Browser, Page } from '@playwright/test';
import { CLIENT, expect, login, ok, OPERATOR, test } from './support';

/**
 * The chat of an order (issue 19, docs/adr/0023): the client opens it from the order card, and
 * messages go both ways live between the client's and the operator's browsers — each in its own
 * context (its own session and stream), neither reloading the page.
 */
type Any = any; // eslint-disable-line @typescript-eslint/no-explicit-any

async function asUser(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, user);
  return page;
}

/** A new draft order of a client the demo operator serves, made by that client: no chat yet. */
async function draftOrderOfOperator(client: Page, operator: Page) {
  const theirs = (await ok(operator, 'client_order_list', { per_page: 50 })).items as Any[];
  const mine = new Set(
    ((await ok(client, 'client_order_list', { per_page: 50 })).items as Any[]).map((o) => o.id),
  );
  const model = theirs.find((o) => mine.has(o.id) && o.logistic_route_id);
  expect(model, 'a demo order of the client with the demo operator').toBeTruthy();
  const order = await ok(client, 'client_order_update', {
    id: -1,
    client_id: model.client_id,
    operator_id: model.operator_id,
    logistic_route_id: model.logistic_route_id,
    buyout_type: 'operator',
    delivery_type: 'to_door',
  });
  return order.id as number;
}

test('a chat message goes both ways live between the client and the operator', async ({ browser }) => {
  const client = await asUser(browser, CLIENT);
  const operator = await asUser(browser, OPERATOR);
  const orderId = await draftOrderOfOperator(client, operator);
  await client.goto(`/client_order/${orderId}`);
  await operator.goto(`/client_order/${orderId}`);
  const clientChat = client.getByTestId('chat-box');
  const operatorChat = operator.getByTestId('chat-box');

  // no chat yet: the client opens it; the operator's open card follows without a reload
  await clientChat.getByRole('button', { name: 'создать чат' }).click();
  await expect(clientChat.getByText('сообщений пока нет')).toBeVisible();
  await expect(operatorChat.getByText('сообщений пока нет')).toBeVisible();

  // the client writes; the operator's open card shows it live, and once the chat is on their screen it is read
  await clientChat.getByLabel('сообщение…').fill('Здравствуйте! Когда будет выкуп?');
  await clientChat.getByLabel('сообщение…').press('Enter');
  await expect(clientChat.getByTestId('chat-message')).toHaveText([/Когда будет выкуп\?/]);
  await expect(operatorChat.getByTestId('chat-message')).toHaveText([/Ирина Смирнова.*Когда будет выкуп\?/]);
  await operatorChat.scrollIntoViewIfNeeded();
  await expect(operatorChat.getByTestId('chat-unread')).toHaveCount(0);

  // the answer reaches the client's open card live, in the chat and in the card's timeline (docs/adr/0029)
  await operatorChat.getByLabel('сообщение…').fill('Завтра утром, фото пришлю сюда');
  await operatorChat.getByTestId('chat-send').click();
  await expect(clientChat.getByTestId('chat-message')).toHaveText([
    /Когда будет выкуп\?/,
    /Ли Вэй.*Завтра утром, фото пришлю сюда/,
  ]);
  await expect(client.getByTestId('order-timeline').getByRole('listitem').first()).toContainText(
    /Завтра утром, фото пришлю сюда.*Ли Вэй/,
  );

  // written while the operator is on the orders list: their row marks the order whose chat has news
  await operator.goto('/client_order');
  const row = operator
    .getByRole('row')
    .filter({ hasText: String(orderId) })
    .first();
  await expect(row.getByRole('cell').first()).toBeVisible();
  await expect(row.getByTestId('chat-unread-mark')).toHaveCount(0);
  await clientChat.getByLabel('сообщение…').fill('Спасибо!');
  await clientChat.getByLabel('сообщение…').press('Enter');
  await expect(clientChat.getByTestId('chat-message')).toHaveCount(3);
  await operator.reload();
  await expect(row.getByTestId('chat-unread-mark')).toHaveText('1');
});
