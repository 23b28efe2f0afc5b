/**
 * Exact decimal arithmetic for money, rates, weights and volumes: values are scaled BigInts, never
 * floats (ARCHITECTURE §7). Six internal decimals; results rounded half up where they are shown.
 */
const SCALE = 6;
const ONE = 10n ** BigInt(SCALE);

export type Decimal = bigint;

/** '12.5', 12.5 or '-0.001' → scaled value; throws on anything that is not a plain decimal. */
export function dec(value: string | number): Decimal {
  const text = typeof value === 'number' ? numberText(value) : value.trim();
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`not a decimal: ${String(value)}`);
  const fraction = (m[3] ?? '').padEnd(SCALE + 1, '0');
  let units = BigInt(m[2]!) * ONE + BigInt(fraction.slice(0, SCALE));
  if (Number(fraction[SCALE]) >= 5) units += 1n;
  return m[1] ? -units : units;
}

const numberText = (n: number) => {
  if (!Number.isFinite(n)) throw new Error(`not a decimal: ${n}`);
  return n.toFixed(SCALE + 1);
};

const divRound = (a: bigint, b: bigint) => {
  const negative = a < 0n !== b < 0n;
  const [x, y] = [a < 0n ? -a : a, b < 0n ? -b : b];
  const q = (x * 2n + y) / (y * 2n);
  return negative ? -q : q;
};

export const decMul = (a: Decimal, b: Decimal): Decimal => divRound(a * b, ONE);
export const decDiv = (a: Decimal, b: Decimal): Decimal => {
  if (b === 0n) throw new Error('division by zero');
  return divRound(a * ONE, b);
};
export const decCmp = (a: Decimal, b: Decimal) => (a < b ? -1 : a > b ? 1 : 0);

/** Rounded half up to `digits` decimals, as a plain string ('1234.50'). */
export function decFormat(value: Decimal, digits = 2): string {
  const step = 10n ** BigInt(SCALE - digits);
  const rounded = divRound(value, step);
  const negative = rounded < 0n;
  const abs = negative ? -rounded : rounded;
  const base = 10n ** BigInt(digits);
  const whole = (abs / base).toString();
  const fraction = digits ? `.${(abs % base).toString().padStart(digits, '0')}` : '';
  return `${negative ? '-' : ''}${whole}${fraction}`;
}
