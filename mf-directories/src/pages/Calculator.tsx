import { Button, Card, FormGroup, H3, HTMLTable, InputGroup, NonIdealState } from '@blueprintjs/core';
import {
  CalculateParams,
  COUNTRY,
  describeIssues,
  MESSAGES,
  ROUTE_TYPE_LABELS,
  type RouteQuote,
} from '@caravan/contracts';
import { baseApi, ReferenceSelect, toast } from '@caravan/ui-kit';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';

const calculatorApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    routeCalculate: build.mutation<RouteQuote[], CalculateParams>({
      query: (params) => ({ method: 'logistic_route_calculate', params }),
    }),
  }),
});

type Form = {
  from_city_id: number | null;
  to_warehouse_id: number | null;
  logistic_product_type_id: number | null;
  weight: string;
  volume: string;
};

/**
 * Tariff calculator /logistic_route/widget: from a Chinese city to an arrival warehouse, for a product
 * type, weight and volume → the active routes that carry it, priced from their density tables in
 * dollars, with days and the buyout commission.
 */
export default function Calculator() {
  const { t } = useTranslation();
  const [form, setForm] = useState<Form>({
    from_city_id: null,
    to_warehouse_id: null,
    logistic_product_type_id: null,
    weight: '',
    volume: '',
  });
  const [calculate, { data, isLoading }] = calculatorApi.useRouteCalculateMutation();
  const set = (patch: Partial<Form>) => setForm((f) => ({ ...f, ...patch }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const parsed = CalculateParams.safeParse(form);
    if (!parsed.success) return void toast(describeIssues(parsed.error.issues, form), 'warning');
    try {
      await calculate(parsed.data).unwrap();
    } catch (err) {
      void toast((err as { message?: string }).message ?? MESSAGES.somethingWentWrong, 'danger');
    }
  };

  return (
    <Card className="caravan-calculator">
      <H3>{t('pages.calculator')}</H3>
      <form onSubmit={submit} className="caravan-form-grid">
        <FormGroup label={t('calculator.from')} labelInfo="*" labelFor="calc-from">
          <ReferenceSelect
            id="calc-from"
            entity="city"
            value={form.from_city_id}
            where={[{ field: 'country_id', op: '=', value: COUNTRY.CHINA }]}
            onChange={(id) => set({ from_city_id: id })}
          />
        </FormGroup>
        <FormGroup label={t('calculator.to')} labelInfo="*" labelFor="calc-to">
          <ReferenceSelect
            id="calc-to"
            entity="warehouse_point"
            value={form.to_warehouse_id}
            where={[{ field: 'type', op: '=', value: 'arrival' }]}
            onChange={(id) => set({ to_warehouse_id: id })}
          />
        </FormGroup>
        <FormGroup label={t('calculator.productType')} labelInfo="*" labelFor="calc-type">
          <ReferenceSelect
            id="calc-type"
            entity="logistic_product_type"
            value={form.logistic_product_type_id}
            onChange={(id) => set({ logistic_product_type_id: id })}
          />
        </FormGroup>
        <FormGroup label={t('calculator.weight')} labelInfo="*" labelFor="calc-weight">
          <InputGroup
            id="calc-weight"
            inputMode="decimal"
            value={form.weight}
            onValueChange={(weight) => set({ weight: weight.replace(',', '.') })}
          />
        </FormGroup>
        <FormGroup label={t('calculator.volume')} labelInfo="*" labelFor="calc-volume">
          <InputGroup
            id="calc-volume"
            inputMode="decimal"
            value={form.volume}
            onValueChange={(volume) => set({ volume: volume.replace(',', '.') })}
          />
        </FormGroup>
        <div className="caravan-item-actions">
          <Button
            type="submit"
            intent="primary"
            icon="calculator"
            text={t('calculator.calculate')}
            loading={isLoading}
          />
        </div>
      </form>
      {data &&
        (data.length === 0 ? (
          <NonIdealState icon="search" title={t('common.nothingFound')} />
        ) : (
          <HTMLTable striped className="caravan-list-table" data-testid="quotes">
            <thead>
              <tr>
                <th>{t('calculator.route')}</th>
                <th>{t('calculator.operator')}</th>
                <th>{t('calculator.days')}</th>
                <th>{t('calculator.density')}</th>
                <th>{t('calculator.rate')}</th>
                <th>{t('calculator.commission')}</th>
                <th>{t('calculator.price')}</th>
              </tr>
            </thead>
            <tbody>
              {data.map((q) => (
                <tr key={q.logistic_route_id} data-testid="quote">
                  <td>
                    {q.title} ({t(`enums.type.${q.type}`, { defaultValue: ROUTE_TYPE_LABELS[q.type] })})
                  </td>
                  <td>{q.operator_title}</td>
                  <td>{t('calculator.daysRange', { from: q.days_from ?? '?', to: q.days_to ?? '?' })}</td>
                  <td>{q.density}</td>
                  <td>{q.unit === 'kg' ? `$${q.rate} / кг` : `$${q.rate} / м³`}</td>
                  <td>{q.buyout_commission}%</td>
                  <td>
                    <strong>${q.price_usd}</strong>
                  </td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>
        ))}
    </Card>
  );
}
