import { USER_MESSAGES } from '@caravan/contracts';
import { eventually } from '@caravan/service-kit';
import { call, login, startSystem, type System } from './system';

let system: System;
let admin: string;

beforeAll(async () => {
  system = await startSystem();
  admin = (await login(system.url, 'admin@caravan.local', 'caravan-admin')).result.token;
});
afterAll(() => system?.stop());

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${system.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { ok: boolean; result: unknown; message?: string };
};

/** The token of the newest mail to `email` whose link goes to `page`. */
const tokenFromMail = (email: string, page: string) =>
  eventually(`a mail to ${email}`, async () => {
    const link = system.mail.messages
      .filter((m) => m.to.includes(email))
      .flatMap((m) => m.links)
      .reverse()
      .find((l) => l.includes(`/${page}?`));
    return link && new URL(link).searchParams.get('token');
  });

const form = (email: string, over: Record<string, string> = {}) => ({
  login: email,
  password: 'secret-7',
  passwordRepeat: 'secret-7',
  first_name: 'Мария',
  last_name: 'Иванова',
  ...over,
});

describe('registration', () => {
  it("refuses a bad form with the spec's messages and creates nobody", async () => {
    expect(await post('register', form('not-an-email'))).toMatchObject({
      ok: false,
      message: expect.stringContaining('введите корректный email'),
    });
    expect(
      await post('register', form('a@b.ru', { password: '123456', passwordRepeat: '123456' })),
    ).toMatchObject({
      ok: false,
      message: expect.stringContaining('пароль должен быть не короче 7 символов'),
    });
    expect(await post('register', form('a@b.ru', { passwordRepeat: 'other-77' }))).toMatchObject({
      ok: false,
      message: expect.stringContaining('wrong repeat'),
    });
    expect(await post('register', form('a@b.ru', { first_name: ' ' }))).toMatchObject({
      ok: false,
      message: expect.stringContaining("не заполнено поле 'имя'"),
    });
    const users = await call(system.url, admin, 'user_list', { search: 'a@b.ru' });
    expect(users.body.result.total).toBe(0);
  });

  it('takes a new user through the mailed link to the waiting state, then an admin lets them in', async () => {
    const email = `maria.${Date.now()}@example.ru`;
    expect(await post('register', form(email))).toEqual({
      ok: true,
      result: USER_MESSAGES.registrationSent,
      message: USER_MESSAGES.registrationSent,
    });
    expect(await login(system.url, email, 'secret-7')).toMatchObject({
      ok: false,
      message: USER_MESSAGES.emailNotConfirmed,
    });

    const token = await tokenFromMail(email, 'check_user_email');
    expect(await post('check_user_email', { token })).toMatchObject({
      ok: true,
      message: USER_MESSAGES.emailConfirmed,
    });
    expect(await post('check_user_email', { token })).toMatchObject({
      ok: false,
      message: USER_MESSAGES.linkInactive,
    });

    const waiting = (await login(system.url, email, 'secret-7')).result.token;
    expect((await call(system.url, waiting, 'user_current')).body.result).toMatchObject({
      email,
      options: { state: 'waiting_auth' },
    });
    expect(await call(system.url, waiting, 'client_list')).toMatchObject({
      status: 403,
      body: { message: 'Ожидаем подтверждения Вашей авторизации' },
    });

    const { id } = (await call(system.url, admin, 'user_list', { search: email })).body.result.items[0];
    expect(
      (await call(system.url, admin, 'user_update', { id, state: 'working', roles: ['client'] })).body.ok,
    ).toBe(true);
    expect(
      (await call(system.url, admin, 'client_user_link_update', { id: -1, client_id: 2, user_table_id: id }))
        .body.ok,
    ).toBe(true);

    const clients = await call(system.url, waiting, 'client_list');
    expect(clients.body.result.items.map((c: { id: number }) => c.id)).toEqual([2]);
    const history = (await call(system.url, admin, 'user_history', { id })).body.result as {
      type: string;
      old_value: unknown;
      new_value: unknown;
    }[];
    expect(history).toContainEqual(
      expect.objectContaining({ type: 'state', old_value: 'waiting_auth', new_value: 'working' }),
    );

    await call(system.url, admin, 'user_update', { id, state: 'fired' });
    expect(await call(system.url, waiting, 'client_list')).toMatchObject({
      status: 403,
      body: { message: 'Ваш аккаунт заблокирован. Обратитесь к администратору.' },
    });
    expect((await call(system.url, waiting, 'user_current')).body.result.options.state).toBe('fired');
  });

  it('answers a taken email exactly like a new one and leaves that account alone', async () => {
    const reply = await post(
      'register',
      form('admin@caravan.local', { password: 'takeover-1', passwordRepeat: 'takeover-1' }),
    );
    expect(reply).toEqual({
      ok: true,
      result: USER_MESSAGES.registrationSent,
      message: USER_MESSAGES.registrationSent,
    });
    expect((await login(system.url, 'admin@caravan.local', 'caravan-admin')).ok).toBe(true);
    expect((await login(system.url, 'admin@caravan.local', 'takeover-1')).ok).toBe(false);
  });
});

/** A user of this test's own: registered, confirmed, approved by the admin and linked to client 2. */
async function newWorkingUser(): Promise<{ email: string; id: number }> {
  const email = `user.${Date.now()}.${Math.random().toString(36).slice(2, 7)}@example.ru`;
  await post('register', form(email));
  await post('check_user_email', { token: await tokenFromMail(email, 'check_user_email') });
  const { id } = (await call(system.url, admin, 'user_list', { search: email })).body.result.items[0];
  await call(system.url, admin, 'user_update', { id, state: 'working' });
  await call(system.url, admin, 'client_user_link_update', { id: -1, client_id: 2, user_table_id: id });
  return { email, id };
}

describe('password recovery', () => {
  it('answers alike for any address and sets a new password through the mailed link, ending old sessions', async () => {
    const { email } = await newWorkingUser();
    const unknown = await post('recover_password', { login: 'nobody.here@example.ru' });
    const known = await post('recover_password', { login: email });
    expect(known).toEqual(unknown);
    expect(system.mail.messages.some((m) => m.to.includes('nobody.here@example.ru'))).toBe(false);

    const before = (await login(system.url, email, 'secret-7')).result.token;
    const token = await tokenFromMail(email, 'email_auth_recover_password');
    expect(
      await post('email_auth_recover_password', { token, password: 'new-secret-1', passwordRepeat: 'other' }),
    ).toMatchObject({
      ok: false,
      message: expect.stringContaining('wrong repeat'),
    });
    expect(
      await post('email_auth_recover_password', {
        token,
        password: 'new-secret-1',
        passwordRepeat: 'new-secret-1',
      }),
    ).toMatchObject({
      ok: true,
      message: USER_MESSAGES.passwordChanged,
    });
    expect((await call(system.url, before, 'country_list')).status).toBe(401);
    expect((await login(system.url, email, 'new-secret-1')).ok).toBe(true);
    expect((await login(system.url, email, 'secret-7')).ok).toBe(false);
    expect(
      await post('email_auth_recover_password', {
        token,
        password: 'again-secret',
        passwordRepeat: 'again-secret',
      }),
    ).toMatchObject({
      ok: false,
      message: USER_MESSAGES.recoveryLinkInactive,
    });
  });
});

describe('profile and user administration', () => {
  it('lets a user edit their own name and phone, with the phone rule, and nothing else', async () => {
    const { email, id } = await newWorkingUser();
    const client = (await login(system.url, email, 'secret-7')).result.token;
    expect((await call(system.url, client, 'profile_update', { phone: '+8 900 123 45' })).body).toMatchObject(
      { ok: false, message: expect.stringContaining('введите корректный номер') },
    );
    expect(
      (await call(system.url, client, 'profile_update', { phone: '+79001234567', first_name: 'Пётр' })).body,
    ).toMatchObject({ ok: true, result: { fullname: 'Пётр Иванова' } });
    expect((await call(system.url, client, 'profile_update', { roles: ['admin'] })).body).toMatchObject({
      ok: false,
      message: "неизвестное поле 'roles'",
    });
    expect((await call(system.url, client, 'user_update', { id: 1, state: 'fired' })).body).toMatchObject({
      ok: false,
      message: 'действие доступно только администратору',
    });
    expect(
      (await call(system.url, client, 'client_user_link_update', { id: -1, client_id: 1, user_table_id: id }))
        .body.ok,
    ).toBe(false);
    expect(
      (await call(system.url, client, 'client_list')).body.result.items.map((c: { id: number }) => c.id),
    ).toEqual([2]);
    const self = (await call(system.url, admin, 'user_get_by_id', { id })).body.result;
    expect(self).toMatchObject({
      phone: '+79001234567',
      first_name: 'Пётр',
      last_name: 'Иванова',
      roles: ['client'],
      state: 'working',
    });
    expect(self).not.toHaveProperty('password_hash');
    expect((await login(system.url, 'admin@caravan.local', 'caravan-admin')).ok).toBe(true);
  });
});
