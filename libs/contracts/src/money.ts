/** Formats a money amount (decimal string from the API) the ru-RU way with two decimals, for display only. */
export function formatMoney(amount: string | number | null | undefined, symbol = '₽'): string {
  if (amount === null || amount === undefined || amount === '') return '';
  const text = new Intl.NumberFormat('ru-RU', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(
    Number(amount),
  );
  return symbol ? `${text} ${symbol}` : text;
}
