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

  await clientChat.getByLabel('сообщение…').fill('Здравствуйте! Когда будет выкуп?');
  await clientChat.getByLabel('сообщение…').press('Enter');
  await expect(clientChat.getByTestId('chat-message')).toHaveText([/Когда будет выкуп\?/]);
  await expect(operatorChat.getByTestId('chat-message')).toHaveText([/Ирина Смирнова.*Когда будет выкуп\?/]);
  await expect(operatorChat.getByTestId('chat-unread')).toHaveText('1 новое сообщение');

  await operatorChat.getByLabel('сообщение…').fill('Завтра утром, фото пришлю сюда');
  await operatorChat.getByTestId('chat-send').click();
  // writing in the box read the client's message
  await expect(operatorChat.getByTestId('chat-unread')).toHaveCount(0);
  await expect(clientChat.getByTestId('chat-message')).toHaveText([
    /Когда будет выкуп\?/,
    /Ли Вэй.*Завтра утром, фото пришлю сюда/,
  ]);
  await expect(clientChat.getByTestId('chat-unread')).toHaveText('1 новое сообщение');
  // the card's timeline tells the messages too, live, newest first (docs/adr/0029)
  await expect(client.getByTestId('order-timeline').getByRole('listitem').first()).toContainText(
    /Завтра утром, фото пришлю сюда.*Ли Вэй/,
  );

  // the operator's orders list marks the order whose chat has news
  await clientChat.getByLabel('сообщение…').fill('Спасибо!');
  await clientChat.getByLabel('сообщение…').press('Enter');
  await operator.goto('/client_order');
  const row = operator
    .getByRole('row')
    .filter({ hasText: String(orderId) })
    .first();
  await expect(row.getByTestId('chat-unread-mark')).toHaveText('1');
});
