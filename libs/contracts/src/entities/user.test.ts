import { PASSWORD_MESSAGES, passwordWeakness, RegistrationParams } from './user';

describe('passwords a guesser tries first', () => {
  it.each([
    '1234567',
    'aaaaaaa',
    'qwerty1',
    'abc123!',
    '12345678a',
    'abcabcabc',
    'password1',
    'caravan',
    'йцукенг1',
  ])('refuses %s', (password) => expect(passwordWeakness(password)).toBe(PASSWORD_MESSAGES.tooSimple));

  it('refuses blank and the email itself, and takes a password of words and digits', () => {
    expect(passwordWeakness('       ')).toBe(PASSWORD_MESSAGES.blank);
    expect(passwordWeakness('ivan.petrov1', 'ivan.petrov@mail.ru')).toBe(PASSWORD_MESSAGES.tooSimple);
    expect(passwordWeakness('Зелёный-слон-42')).toBeNull();
    expect(passwordWeakness('secret-77')).toBeNull();
  });

  it('says so on the registration form, under the password', () => {
    const form = {
      login: 'ivan.petrov@mail.ru',
      password: 'ivan.petrov',
      passwordRepeat: 'ivan.petrov',
      first_name: 'Иван',
      last_name: 'Петров',
    };
    const parsed = RegistrationParams.safeParse(form);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues).toEqual([
      expect.objectContaining({ path: ['password'], message: PASSWORD_MESSAGES.tooSimple }),
    ]);
  });
});
