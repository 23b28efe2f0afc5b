import type { Browser, Page } from '@playwright/test';
import { PORT_OFFSET } from './playwright.config';
import { callAsPage, CLIENT, expect, login, OPERATOR, test } from './support';

/**
 * Telegram in the running system (issue 19, ADR 0022), with the Bot API sandbox `npm start` runs: the
 * operator links their Telegram on /profile by sending the code to the bot on the sandbox's page; the
 * client writes from the order card's telegram dialog; the sandbox's page shows the operator's chat got it.
 */

const SANDBOX = `http://127.0.0.1:${4018 + PORT_OFFSET}`;
const OPERATOR_CHAT = '880001';

async function asUser(browser: Browser, user: { email: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await login(page, user);
  return page;
}

/** The sandbox page's section of one chat. */
const chat = (page: Page, id: string) => page.locator(`section[data-chat="${id}"]`);

test('a linked operator receives in Telegram what the client writes from the order card', async ({
  browser,
}) => {
  // the operator asks for a code on /profile and sends it to the bot as their chat
  const operator = await asUser(browser, OPERATOR);
  await operator.goto('/profile');
  await expect(operator.getByTestId('telegram-state')).toHaveText(/Telegram не привязан/);
  await operator.getByTestId('telegram-get-code').click();
  const code = (await operator.getByTestId('telegram-code').textContent())!.trim();
  expect(code).toMatch(/^[A-Z0-9]{8}$/);
  await expect(operator.getByTestId('telegram-open-bot')).toHaveAttribute(
    'href',
    `${SANDBOX}/?start=${code}`,
  );

  const bot = await operator.context().newPage();
  await bot.goto(`${SANDBOX}/?start=${code}`);
  await bot.getByLabel('id чата').fill(OPERATOR_CHAT);
  await bot.getByLabel('имя').fill('Ли Вэй');
  await expect(bot.getByLabel('сообщение')).toHaveValue(`/start ${code}`);
  await bot.getByRole('button', { name: 'отправить боту' }).click();
  // the form's post comes back to the page, now showing the new chat: reloading before that races the navigation
  await expect(chat(bot, OPERATOR_CHAT).locator('li.from-user')).toHaveText([/\/start/]);
  await expect
    .poll(async () => {
      await bot.reload();
      return chat(bot, OPERATOR_CHAT).locator('li.from-bot').allTextContents();
    })
    .toEqual([expect.stringContaining('Готово: этот чат привязан к Caravan (Ли Вэй)')]);
  // the open profile finds the link by itself
  await expect(operator.getByTestId('telegram-state')).toHaveText('привязан: Ли Вэй');

  // the client writes to the operator from the card of their order
  const client = await asUser(browser, CLIENT);
  const order = await callAsPage(client, 'client_order_update', {
    id: -1,
    title: 'Телеграм-проверка',
    client_id: 1,
    operator_id: 1,
    logistic_route_id: 1,
    buyout_type: 'operator',
    delivery_type: 'to_door',
  });
  expect(order.message ?? null).toBeNull();
  await client.goto(`/client_order/${order.result.id as number}`);
  await client.getByTestId('order-telegram').click();
  const dialog = client.getByRole('dialog');
  await expect(dialog).toContainText('сообщение оператору «Восточный экспресс» в Telegram');
  await dialog.getByTestId('telegram-msg').fill('ок?');
  await expect(dialog.getByTestId('telegram-send')).toBeDisabled();
  await dialog.getByTestId('telegram-msg').fill('Когда выкупите товар?');
  await dialog.getByTestId('telegram-send').click();
  await expect(
    client.locator('.bp6-toast').filter({ hasText: 'сообщение отправлено в Telegram' }),
  ).toBeVisible();
  await expect(dialog).toHaveCount(0);

  // the sandbox's page shows the operator's chat received it
  await bot.reload();
  const last = chat(bot, OPERATOR_CHAT).locator('li.from-bot').last();
  await expect(last).toContainText('Caravan · заказ «Телеграм-проверка»');
  await expect(last).toContainText('Когда выкупите товар?');
  await client.context().close();
  await operator.context().close();
});
