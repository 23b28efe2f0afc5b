import {
  bankAccount,
  exchangeRate,
  formatDisplayDate,
  formatRate,
  legalEntity,
  LEGAL_ENTITY_TYPE_LABELS,
  operatorUserLink,
  clientUserLink,
  todayLocal,
} from '@caravan/contracts';
import {
  enumOptions,
  fieldsOf,
  RefTitle,
  userIsStaff,
  type ColumnDef,
  type EntityView,
} from '@caravan/ui-kit';
import { adminOnly, ID, labelled } from './common';

const RATES = Object.keys(exchangeRate.fields.shape).filter((k) => k.includes('_rate_'));

export const legalEntityView: EntityView = {
  entity: 'legal_entity',
  title: 'pages.legal_entity',
  initial: () => ({ type: 'company' }),
  columns: [
    ID,
    { key: 'title', label: legalEntity.labels.title },
    labelled('type', legalEntity.labels.type, LEGAL_ENTITY_TYPE_LABELS),
    { key: 'inn', label: legalEntity.labels.inn },
    { key: 'kpp', label: legalEntity.labels.kpp },
    {
      key: 'operator_id',
      label: legalEntity.labels.operator_id,
      render: (row) => <RefTitle entity="operator" id={row.operator_id} />,
    },
    {
      key: 'client_id',
      label: legalEntity.labels.client_id,
      render: (row) => <RefTitle entity="client" id={row.client_id} />,
    },
  ],
  sort: ['id', 'title', 'inn'],
  fields: fieldsOf(legalEntity, {
    inn: { lookup: 'company' },
    title: {},
    title_full: {},
    type: { kind: 'select', options: enumOptions(LEGAL_ENTITY_TYPE_LABELS) },
    kpp: {},
    director_name: {},
    accountant_name: {},
    address: { kind: 'address' },
    operator_id: { hidden: (v) => Boolean(v.client_id) },
    client_id: { hidden: (v) => Boolean(v.operator_id) },
    description: { kind: 'textarea' },
  }),
};

export const bankAccountView: EntityView = {
  entity: 'bank_account',
  title: 'pages.bank_account',
  columns: [
    ID,
    { key: 'title', label: bankAccount.labels.title },
    { key: 'legal_entity_title', label: bankAccount.labels.legal_entity_title! },
    { key: 'account_number', label: bankAccount.labels.account_number },
    { key: 'bank_title_short', label: bankAccount.labels.bank_title_short },
  ],
  fields: fieldsOf(bankAccount, {
    title: {},
    legal_entity_id: {},
    bank_bik: { lookup: 'bank' },
    bank_title_short: {},
    bank_title_full: {},
    bank_account_number: {},
    account_number: {},
    comment: { kind: 'textarea' },
  }),
};

const rateColumn = (key: keyof typeof exchangeRate.fields.shape): ColumnDef => ({
  key,
  label: exchangeRate.labels[key],
  render: (row) => formatRate(row[key] as string | null),
});

export const exchangeRateView: EntityView = {
  entity: 'exchange_rate',
  title: 'pages.exchange_rate',
  searchable: exchangeRate.searchFields.length > 0,
  canCreate: userIsStaff,
  canEdit: userIsStaff,
  itemTitle: (v) => formatDisplayDate(v.date as string),
  initial: () => ({ date: todayLocal() }),
  columns: [
    ID,
    { key: 'date', label: exchangeRate.labels.date, render: (row) => formatDisplayDate(row.date as string) },
    {
      key: 'operator_id',
      label: exchangeRate.labels.operator_id,
      render: (row) => <RefTitle entity="operator" id={row.operator_id} />,
    },
    rateColumn('cbr_rate_cny'),
    rateColumn('cbr_rate_usd'),
    rateColumn('client_sell_rate_cny'),
    rateColumn('client_sell_rate_usd'),
  ],
  fields: fieldsOf(exchangeRate, {
    date: { kind: 'date' },
    operator_id: {},
    ...Object.fromEntries(RATES.map((r) => [r, { kind: 'decimal' as const }])),
  }),
};

const userLinkView = (
  entity: string,
  contract: typeof operatorUserLink,
  column: 'operator_id' | 'client_id',
): EntityView => ({
  entity,
  title: `pages.${entity}`,
  ...adminOnly,
  columns: [
    ID,
    {
      key: column,
      label: contract.labels[column]!,
      render: (row) => <RefTitle entity={column.replace('_id', '')} id={row[column]} />,
    },
    {
      key: 'user_table_id',
      label: contract.labels.user_table_id!,
      render: (row) => <RefTitle entity="user" id={row.user_table_id} />,
    },
  ],
  fields: [
    {
      name: column,
      label: contract.labels[column]!,
      kind: 'ref',
      entity: column.replace('_id', ''),
      required: true,
    },
    {
      name: 'user_table_id',
      label: contract.labels.user_table_id!,
      kind: 'ref',
      entity: 'user',
      required: true,
    },
  ],
});
export const operatorUserLinkView = userLinkView('operator_user_link', operatorUserLink, 'operator_id');
export const clientUserLinkView = userLinkView('client_user_link', clientUserLink, 'client_id');
