import { z } from 'zod';
import { specMessage } from '../validation';
import { defineEntityContract, Id, IdList, OptionalId, Percent, Text, type BaseRow } from './common';
import { TRANSPORT_COMPANIES } from './transport';
import { EMAIL_PATTERN } from './credentials';
import { Phone } from './user';

export const DISCOUNT_MESSAGES = {
  tooBig: specMessage('скидка не может быть больше 100%'),
  tooSmall: specMessage('скидка не может быть меньше 0%'),
} as const;

/** Spec §5: a discount is a number 0..100; outside it blocks the save with the spec's message. */
export const Discount = z.coerce
  .number({ error: 'ожидается число' })
  .min(0, DISCOUNT_MESSAGES.tooSmall)
  .max(100, DISCOUNT_MESSAGES.tooBig);

/** The message for a discount value as typed, or null when it is acceptable. */
export function discountError(value: unknown): string | null {
  const parsed = Discount.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? DISCOUNT_MESSAGES.tooBig);
}

/** One client of an operator (spec §3): the client's id, its identifier at this operator, debts allowed, discounts. */
export const OperatorClient = z.strictObject({
  id: Id,
  title: z.string().trim().max(200).default(''),
  identifier: z.string().trim().max(100).default(''),
  is_negative_buyout: z.boolean().default(false),
  is_negative_delivery: z.boolean().default(false),
  discount_buyout: Discount.default(0),
  discount_delivery: Discount.default(0),
});
export type OperatorClient = z.infer<typeof OperatorClient>;
export const OPERATOR_CLIENT_LABELS: Record<keyof OperatorClient, string> = {
  id: 'клиент',
  title: 'название',
  identifier: 'идентификатор',
  is_negative_buyout: 'выкуп в долг',
  is_negative_delivery: 'доставка в долг',
  discount_buyout: 'скидка на выкуп, %',
  discount_delivery: 'скидка на доставку, %',
};

/** API access to a carrier for this operator; recipient_cost_commission is the carrier's cash-on-delivery fee. */
export const TransportCompanyData = z.strictObject({
  type: z.enum(TRANSPORT_COMPANIES),
  api_data: z
    .strictObject({
      client_id: z.string().trim().max(200).default(''),
      access_token: z.string().trim().max(500).default(''),
    })
    .default({ client_id: '', access_token: '' }),
  recipient_cost_commission: Percent.default('0'),
});
export type TransportCompanyData = z.infer<typeof TransportCompanyData>;
export const TRANSPORT_COMPANY_DATA_LABELS = {
  type: 'перевозчик',
  'api_data.client_id': 'ID клиента в API',
  'api_data.access_token': 'токен доступа',
  recipient_cost_commission: 'комиссия за наложенный платёж, %',
} as const;

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export const WEEKDAY_LABELS: Record<Weekday, string> = {
  mon: 'понедельник',
  tue: 'вторник',
  wed: 'среда',
  thu: 'четверг',
  fri: 'пятница',
  sat: 'суббота',
  sun: 'воскресенье',
};

const Time = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'время в формате ЧЧ:ММ');
/** Working hours of one weekday (Moscow time; from inclusive, to exclusive); null: a day off. */
export const WorkingDay = z
  .strictObject({ from: Time, to: Time })
  .refine((d) => d.from < d.to, 'начало рабочего дня должно быть раньше конца')
  .nullable();
export const WorkingHours = z
  .strictObject(
    Object.fromEntries(WEEKDAYS.map((d) => [d, WorkingDay.default(null)])) as Record<
      Weekday,
      z.ZodDefault<typeof WorkingDay>
    >,
  )
  .default(Object.fromEntries(WEEKDAYS.map((d) => [d, null])) as Record<Weekday, null>);
export type WorkingHours = z.infer<typeof WorkingHours>;

export const TAX_TYPES = ['osn', 'usn_income', 'usn_income_expense', 'patent', 'npd'] as const;
export const TAX_TYPE_LABELS: Record<(typeof TAX_TYPES)[number], string> = {
  osn: 'ОСН',
  usn_income: 'УСН «доходы»',
  usn_income_expense: 'УСН «доходы минус расходы»',
  patent: 'патент',
  npd: 'НПД',
};

export const OPERATOR_MESSAGES = {
  duplicateClient: (id: number) => `клиент #${id} указан в списке клиентов дважды`,
  duplicateCarrier: (type: string) => `данные перевозчика ${type} указаны дважды`,
  // a client joins an operator's list through the admin: an operator cannot claim a client (docs/access.md)
  clientListAdminOnly:
    'убрать клиента из списка оператора или добавить клиента без заказов у этого оператора может только администратор',
  foreignLegalEntity: 'можно указать только юрлица и банковские счета этого оператора',
} as const;

const unique = <T>(items: T[], key: (t: T) => unknown) => new Set(items.map(key)).size === items.length;

export const operator = defineEntityContract({
  name: 'operator',
  title: 'операторы',
  fields: z.strictObject({
    title: z.string().trim().min(1).max(200),
    email: z
      .string()
      .trim()
      .max(320)
      .refine((v) => v === '' || EMAIL_PATTERN.test(v), 'введите корректный email')
      .default(''),
    phone: Phone.nullable().default(null),
    incognito: z.boolean().default(false),
    tax_type: z.enum(TAX_TYPES).nullable().default(null),
    tax_rate: Percent.default('0'),
    nds_rate: Percent.default('0'),
    consolidation_warehouse_id: OptionalId,
    to_warehouse_id: OptionalId,
    warehouse_id: OptionalId,
    route_id: OptionalId,
    package_id: OptionalId,
    legal_entity_id: IdList,
    bank_account_id: OptionalId,
    working_hours: WorkingHours,
    transport_company_data: z
      .array(TransportCompanyData)
      .max(20)
      .default([])
      .superRefine((list, ctx) => {
        const seen = new Set<string>();
        for (const entry of list)
          if (seen.has(entry.type))
            ctx.addIssue({ code: 'custom', message: OPERATOR_MESSAGES.duplicateCarrier(entry.type) });
          else seen.add(entry.type);
      }),
    client_list: z
      .array(OperatorClient)
      .max(5000)
      .default([])
      .superRefine((list, ctx) => {
        if (unique(list, (c) => c.id)) return;
        const ids = list.map((c) => c.id);
        const twice = ids.find((id, i) => ids.indexOf(id) !== i)!;
        ctx.addIssue({ code: 'custom', message: OPERATOR_MESSAGES.duplicateClient(twice) });
      }),
    comment: Text(),
  }),
  labels: {
    title: 'название',
    email: 'email',
    phone: 'телефон',
    incognito: 'инкогнито',
    tax_type: 'система налогообложения',
    tax_rate: 'ставка налога, %',
    nds_rate: 'ставка НДС, %',
    consolidation_warehouse_id: 'склад консолидации',
    to_warehouse_id: 'склад прибытия',
    warehouse_id: 'склад',
    route_id: 'тариф',
    package_id: 'упаковка',
    legal_entity_id: 'юрлица',
    bank_account_id: 'банковский счёт',
    working_hours: 'часы работы',
    transport_company_data: 'данные перевозчиков',
    client_list: 'клиенты',
    comment: 'комментарий',
  },
  itemLabels: {
    working_hours: { ...WEEKDAY_LABELS, from: 'с', to: 'до' },
    transport_company_data: TRANSPORT_COMPANY_DATA_LABELS,
    client_list: OPERATOR_CLIENT_LABELS,
  },
  required: ['title'],
  searchFields: ['title', 'email'],
  refs: {
    consolidation_warehouse_id: 'warehouse_point',
    to_warehouse_id: 'warehouse_point',
    warehouse_id: 'warehouse_point',
    route_id: 'logistic_route',
    package_id: 'package_description',
    legal_entity_id: 'legal_entity',
    bank_account_id: 'bank_account',
  },
  ownership: { operator: 'id' },
});
export type Operator = BaseRow & z.infer<typeof operator.fields>;

/** What a client may see of an operator (to choose one for an order): no client list, no API keys. */
export const OPERATOR_PUBLIC_COLUMNS = [
  'id',
  'deleted',
  'created_at',
  'updated_at',
  'title',
  'email',
  'phone',
  'incognito',
  'working_hours',
  'consolidation_warehouse_id',
  'to_warehouse_id',
  'warehouse_id',
  'route_id',
  'package_id',
] as const;

/** Moscow is UTC+3 all year. */
const MOSCOW_OFFSET_MS = 3 * 60 * 60 * 1000;
const JS_DAY_TO_WEEKDAY: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

export type HoursNotice = { kind: 'within' | 'before' | 'after' | 'day_off'; text: string };

/**
 * The operator working-hours notice of the order-created confirmation (spec §4: Moscow time; before,
 * after, a day off or within the hours; from inclusive, to exclusive). The wording is ours.
 */
export function operatorHoursNotice(hours: Partial<WorkingHours> | null | undefined, now: Date): HoursNotice {
  const moscow = new Date(now.getTime() + MOSCOW_OFFSET_MS);
  const day = JS_DAY_TO_WEEKDAY[moscow.getUTCDay()]!;
  const time = moscow.toISOString().slice(11, 16);
  const today = hours?.[day] ?? null;
  if (!today)
    return {
      kind: 'day_off',
      text: 'сегодня у оператора выходной: заказ возьмут в работу в ближайший рабочий день',
    };
  if (time < today.from)
    return {
      kind: 'before',
      text: `оператор начинает работу в ${today.from} по московскому времени: заказ возьмут в работу после начала дня`,
    };
  if (time >= today.to)
    return {
      kind: 'after',
      text: `рабочий день оператора закончился в ${today.to} по московскому времени: заказ возьмут в работу на следующий рабочий день`,
    };
  return {
    kind: 'within',
    text: `оператор работает сегодня до ${today.to} по московскому времени: заказ скоро возьмут в работу`,
  };
}
