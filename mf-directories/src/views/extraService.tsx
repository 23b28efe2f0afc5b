import {
  CURRENCY,
  extraService,
  EXTRA_SERVICE_TYPE_LABELS,
  PROCESS_LANG_LABELS,
  SERVICE_UNIT_LABELS,
  TRANSPORT_COMPANY_LABELS,
} from '@caravan/contracts';
import { enumOptions, fieldsOf, Money, type EntityView } from '@caravan/ui-kit';
import { ID, labelled, staffOnly } from './common';

export const extraServiceView: EntityView = {
  entity: 'extra_service',
  title: 'pages.extra_service',
  ...staffOnly,
  initial: () => ({
    unit: 'kg',
    process_lang: 'ru',
    client_price_currency_id: CURRENCY.RUB,
    cost_price_currency_id: CURRENCY.RUB,
  }),
  columns: [
    ID,
    { key: 'title', label: extraService.labels.title },
    labelled('type', extraService.labels.type, EXTRA_SERVICE_TYPE_LABELS),
    { key: 'operator_title', label: extraService.labels.operator_title! },
    { key: 'warehouse_point_title', label: extraService.labels.warehouse_point_title! },
    {
      key: 'client_price_from',
      label: 'цена для клиента',
      render: (row) => (
        <>
          <Money amount={row.client_price_from} currencyId={row.client_price_currency_id} />
          {!row.client_price_fix && row.client_price_to !== null && (
            <>
              {' – '}
              <Money amount={row.client_price_to} currencyId={row.client_price_currency_id} />
            </>
          )}
        </>
      ),
    },
  ],
  fields: fieldsOf(extraService, {
    title: {},
    type: { kind: 'select', options: enumOptions(EXTRA_SERVICE_TYPE_LABELS) },
    operator_id: {},
    warehouse_point_id: {},
    package_description_id: { hidden: (v) => v.type !== 'package' },
    transport_company: {
      kind: 'select',
      options: enumOptions(TRANSPORT_COMPANY_LABELS),
      hidden: (v) => v.type !== 'transfer',
    },
    unit: { kind: 'select', options: enumOptions(SERVICE_UNIT_LABELS) },
    process_lang: { kind: 'select', options: enumOptions(PROCESS_LANG_LABELS) },
    client_price_currency_id: {},
    client_price_fix: { kind: 'checkbox' },
    client_price_from: { kind: 'decimal' },
    client_price_to: { kind: 'decimal', hidden: (v) => Boolean(v.client_price_fix) },
    cost_price_currency_id: {},
    cost_price_from: { kind: 'decimal' },
    cost_price_to: { kind: 'decimal', hidden: (v) => Boolean(v.client_price_fix) },
    comment: { kind: 'textarea' },
  }),
};
