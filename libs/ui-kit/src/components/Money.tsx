import { CURRENCY_SYMBOLS, formatMoney } from '@caravan/contracts';
import { useDocumentGetQuery } from '../entityApi';

/** The sign of a currency: from the currency directory, or the spec's fixed ones while it loads. */
export function useCurrencySymbol(currencyId: unknown): string {
  const valid = typeof currencyId === 'number' && currencyId > 0;
  const { data } = useDocumentGetQuery({ entity: 'currency', id: valid ? currencyId : 0 }, { skip: !valid });
  if (!valid) return '';
  return (data?.symbol as string | undefined) || CURRENCY_SYMBOLS[currencyId] || String(data?.title ?? '');
}

/** An amount in a currency, formatted the one way money is shown ('3 200,00 ₽', '465,00 $'). */
export function Money({ amount, currencyId }: { amount: unknown; currencyId: unknown }) {
  const symbol = useCurrencySymbol(currencyId);
  return <span className="caravan-money">{formatMoney(amount as string | null, symbol)}</span>;
}
