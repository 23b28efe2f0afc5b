import { ADMIN, callAsPage, expect, login, test } from './support';

test('ten tabs of one browser all load and all get a live update', async ({ context, page }) => {
  test.setTimeout(120_000);
  await login(page, ADMIN);
  const tabs = [page];
  for (let i = 1; i < 10; i++) tabs.push(await context.newPage());
  for (const tab of tabs) {
    await tab.goto('/wallet');
    await expect(tab.getByRole('heading', { name: 'Кошельки' })).toBeVisible();
  }
  const wallets = await callAsPage(page, 'wallet_list', { per_page: 1 });
  const wallet = wallets.result.items[0];
  await page.waitForTimeout(1000); // let the leading tab's stream connect before the change

  const title = `Десять вкладок ${Date.now()}`;
  expect((await callAsPage(page, 'wallet_update', { id: wallet.id, title })).ok).toBe(true);

  for (const tab of tabs) await expect(tab.getByTestId('wallet-live-update')).toContainText(title);

  // the tab holding the stream closes: another takes it over and the rest stay live
  await page.close();
  const rest = tabs.slice(1);
  await rest[0]!.waitForTimeout(1000);
  const next = `Девять вкладок ${Date.now()}`;
  expect((await callAsPage(rest[0]!, 'wallet_update', { id: wallet.id, title: next })).ok).toBe(true);
  for (const tab of rest) await expect(tab.getByTestId('wallet-live-update')).toContainText(next);
});
