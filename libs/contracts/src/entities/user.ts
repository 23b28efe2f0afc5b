import { z } from 'zod';
import { EMAIL_PATTERN, PASSWORD_MIN_LENGTH } from './credentials';
import { POSITION_COLUMNS } from './positionColumns';
import { Role, UserState } from '../roles';
import { specMessage } from '../validation';
import { defineEntityContract, type BaseRow } from './common';

/** The current user as the shell receives it (spec §3). */
export const CurrentUser = z.object({
  id: z.number(),
  email: z.string(),
  fullname: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  phone: z.string().nullable(),
  avatar: z.string().nullable(),
  role: z.array(Role),
  options: z.object({
    state: UserState,
    settings: z.record(z.string(), z.unknown()),
  }),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/** Spec §5/§9: '+' then 11 digits; valid only with length 12 and '7' as the second character. */
export const isValidPhone = (phone: string) =>
  phone.length === 12 && phone[1] === '7' && /^\+\d{11}$/.test(phone);
export const PHONE_MESSAGE = specMessage('введите корректный номер');
export const Phone = z.string().trim().refine(isValidPhone, PHONE_MESSAGE);

export const USER_MESSAGES = {
  invalidEmail: 'введите корректный email',
  passwordTooShort: `пароль должен быть не короче ${PASSWORD_MIN_LENGTH} символов`,
  /** The spec's own (untranslated) key for a mismatched repeat. */
  wrongRepeat: 'wrong repeat',
  registrationSent:
    'Письмо со ссылкой для подтверждения отправлено на указанный email. Перейдите по ссылке, чтобы завершить регистрацию.',
  recoverySent: 'Если этот email зарегистрирован, на него отправлено письмо со ссылкой для смены пароля.',
  linkInactive:
    'Ссылка больше не активна: либо email уже подтверждён, либо срок действия ссылки истёк и регистрацию нужно пройти заново.',
  recoveryLinkInactive: 'Ссылка для смены пароля больше не активна. Запросите восстановление пароля ещё раз.',
  emailConfirmed: 'Email подтверждён. Администратор проверит заявку и откроет доступ.',
  passwordChanged: 'Пароль изменён. Войдите с новым паролем.',
  emailNotConfirmed: 'Email не подтверждён: перейдите по ссылке из письма, отправленного при регистрации.',
} as const;

export const PASSWORD_MESSAGES = {
  blank: 'пароль не может состоять из одних пробелов',
  tooSimple: 'пароль слишком простой и легко угадывается: придумайте другой',
} as const;

/** Runs of keys people type instead of a password: digits, the alphabet, keyboard rows (both layouts). */
const KEYBOARD_RUNS = [
  '01234567890',
  '09876543210',
  'abcdefghijklmnopqrstuvwxyz',
  'qwertyuiop',
  'asdfghjkl',
  'zxcvbnm',
  'qazwsxedcrfvtgbyhnujmikolp',
  'йцукенгшщзхъ',
  'фывапролджэ',
  'ячсмитьбю',
  'абвгдеёжзийклмнопрстуфхцчшщъыьэюя',
];
/** The most common passwords of 7+ characters in public leak lists (lower case). */
const COMMON_PASSWORDS = new Set([
  'password',
  'password1',
  'password123',
  'passw0rd',
  'p@ssw0rd',
  'iloveyou',
  'princess',
  'sunshine',
  'football',
  'baseball',
  'welcome',
  'welcome1',
  'monkey123',
  'letmein1',
  'dragon123',
  'starwars',
  'whatever',
  'trustno1',
  'superman',
  'michael1',
  'computer',
  'internet',
  'qwerty123',
  'qwerty',
  'abc123',
  'iloveyou1',
  'qwerty12',
  'qwertyui',
  '1q2w3e4r',
  '1q2w3e4r5t',
  '1qaz2wsx',
  'zaq12wsx',
  'q1w2e3r4',
  'q1w2e3r4t5',
  'a1b2c3d4',
  'abc12345',
  'abcd1234',
  'aa123456',
  '11111111',
  '12341234',
  '123123123',
  '123qweasd',
  'qweasdzxc',
  'administrator',
  'admin123',
  'changeme',
  'caravan123',
  'пароль123',
  'любовь123',
]);

const isRun = (text: string) =>
  text.length >= 3 &&
  KEYBOARD_RUNS.some((run) => run.includes(text) || [...run].reverse().join('').includes(text));

/** 'abcabcabc', 'qweqwe': one short piece said over and over. */
const isRepetition = (text: string) =>
  [1, 2, 3, 4].some(
    (unit) =>
      text.length >= unit * 2 &&
      text.length % unit === 0 &&
      text.slice(0, unit).repeat(text.length / unit) === text,
  );

/** A piece of a password that adds nothing: short, a run, a repetition or a common word. */
const trivial = (part: string) =>
  part.length <= 2 || isRun(part) || isRepetition(part) || COMMON_PASSWORDS.has(part);

/**
 * Why a password is refused beyond its length (spec §5 keeps 7 as the minimum), or null: blank, one
 * or two characters, a repetition, a very common password, the product's name, the email itself, or
 * letters and digits that are each a keyboard or alphabet run ('qwerty1', 'abc123!', '12345678a').
 */
export function passwordWeakness(password: string, email?: string): string | null {
  if (!password.trim()) return PASSWORD_MESSAGES.blank;
  const p = password.toLowerCase();
  const letters = p.replace(/[^\p{L}]/gu, '');
  const digits = p.replace(/\D/g, '');
  const symbols = p.length - letters.length - digits.length;
  const local = email?.toLowerCase().split('@')[0] ?? '';
  if (
    new Set(p).size <= 2 ||
    isRepetition(p) ||
    COMMON_PASSWORDS.has(p) ||
    (symbols <= 2 && trivial(letters) && trivial(digits)) ||
    letters.startsWith('caravan') ||
    (email !== undefined &&
      (p === email.toLowerCase() || (local.length >= 4 && letters === local.replace(/[^\p{L}]/gu, ''))))
  )
    return PASSWORD_MESSAGES.tooSimple;
  return null;
}

const Email = z.string().trim().toLowerCase().max(320).regex(EMAIL_PATTERN, USER_MESSAGES.invalidEmail);
const Password = z
  .string()
  .min(PASSWORD_MIN_LENGTH, USER_MESSAGES.passwordTooShort)
  .max(200)
  .superRefine((password, ctx) => {
    const weakness = password.length >= PASSWORD_MIN_LENGTH ? passwordWeakness(password) : null;
    if (weakness) ctx.addIssue({ code: 'custom', message: weakness });
  });
const Name = (label: string) => z.string().trim().min(1, `не заполнено поле '${label}'`).max(100);

export const LoginParams = z.strictObject({
  login: z.string().trim().min(3).max(320),
  password: z.string().min(1).max(200),
});

/** Registration form (spec §3): login (email), password, passwordRepeat, last_name, first_name. */
export const RegistrationParams = z
  .strictObject({
    login: Email,
    password: Password,
    passwordRepeat: z.string(),
    first_name: Name('имя'),
    last_name: Name('фамилия'),
  })
  .refine((p) => p.password === p.passwordRepeat, {
    message: USER_MESSAGES.wrongRepeat,
    path: ['passwordRepeat'],
  })
  .refine((p) => passwordWeakness(p.password, p.login) === null, {
    message: PASSWORD_MESSAGES.tooSimple,
    path: ['password'],
  });

export const RecoveryParams = z.strictObject({ login: Email });
export const EmailTokenParams = z.strictObject({ token: z.string().min(20).max(200) });
export const NewPasswordParams = z
  .strictObject({ token: z.string().min(20).max(200), password: Password, passwordRepeat: z.string() })
  .refine((p) => p.password === p.passwordRepeat, {
    message: USER_MESSAGES.wrongRepeat,
    path: ['passwordRepeat'],
  });

/** The user record an admin edits (spec §3). The password never travels through it. */
export const user = defineEntityContract({
  name: 'user',
  title: 'пользователи',
  fields: z.strictObject({
    email: Email,
    first_name: z.string().trim().max(100).default(''),
    last_name: z.string().trim().max(100).default(''),
    grade: z.string().trim().max(100).default(''),
    phone: Phone.nullable().default(null),
    photo: z.string().max(2000).nullable().default(null),
    roles: z.array(Role).default([]),
    state: UserState.default('waiting_auth'),
    // telegram_id is not typed in: the user links their chat by a code (svc-orders' telegram_link, ADR 0022)
  }),
  labels: {
    email: 'email',
    first_name: 'имя',
    last_name: 'фамилия',
    grade: 'должность',
    phone: 'телефон',
    photo: 'фото',
    roles: 'роли',
    state: 'состояние',
  },
  required: ['email'],
  searchFields: ['email', 'first_name', 'last_name'],
});
export type User = BaseRow & z.infer<typeof user.fields>;

/** What a user may change of themselves on /profile (spec §2). No defaults: absent fields stay as they are. */
export const ProfileParams = z
  .strictObject({
    first_name: z.string().trim().max(100),
    last_name: z.string().trim().max(100),
    phone: Phone.nullable(),
    photo: z.string().max(2000).nullable(),
  })
  .partial();

/**
 * The user's own lists kept in options.settings (issue 9: the order list's favourites and archive):
 * each given list replaces the stored one; the rest of the settings stay.
 */
const OwnIds = z.array(z.number().int().positive()).max(1000);
export const SettingsParams = z.strictObject({
  favourite_orders: OwnIds.optional(),
  archived_orders: OwnIds.optional(),
  position_doc_columns: z.array(z.enum(POSITION_COLUMNS)).max(POSITION_COLUMNS.length).optional(),
  /** the wallet the header widget shows (spec: wallet.personalWidget.activeId); null: the default one */
  wallet_widget_id: z.number().int().positive().nullable().optional(),
});
export type SettingsParams = z.infer<typeof SettingsParams>;
export const SETTINGS_LABELS = {
  labels: {
    favourite_orders: 'избранные заказы',
    archived_orders: 'заказы в архиве',
    wallet_widget_id: 'кошелёк в виджете',
    position_doc_columns: 'колонки позиций',
  },
} as const;

const link = (name: string, title: string, column: 'client_id' | 'operator_id', label: string) =>
  defineEntityContract({
    name,
    title,
    fields: z.strictObject({
      [column]: z.number().int().positive(),
      user_table_id: z.number().int().positive(),
    }),
    labels: { [column]: label, user_table_id: 'пользователь' },
    required: [column, 'user_table_id'],
    searchFields: [],
  });
export const clientUserLink = link('client_user_link', 'связи пользователь-клиент', 'client_id', 'клиент');
export const operatorUserLink = link(
  'operator_user_link',
  'связи пользователь-оператор',
  'operator_id',
  'оператор',
);

/** A sample catalogue item shown to visitors (spec §3): price in yuan. */
export type CatalogueItem = {
  id: number;
  img: string;
  title: string;
  manufacturer: string;
  brand: string;
  quality: string;
  price: string;
};
