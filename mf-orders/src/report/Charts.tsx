/**
 * Bar charts drawn as SVG (no chart library: the report page stays light, docs/adr/0024-reports.md).
 * Vertical bars for a time line (months), horizontal ones for named groups with long names (stages).
 * Each bar carries its figures as a tooltip (<title>) and its value as an aria label.
 */

export type Bar = {
  key: string;
  label: string;
  /** what the bar's length shows (a count, or rubles as a number: drawing only) */
  value: number;
  /** the bar's tooltip: its figures in words */
  title: string;
};

type Props = { bars: Bar[]; format(value: number): string; 'data-testid'?: string; label: string };

const WIDTH = 640;
const BAR_SHARE = 0.7;

const scale = (bars: Bar[]) => Math.max(...bars.map((b) => b.value), 0) || 1;

/** Vertical bars over a time line: the value axis at the left with its top and middle marks. */
export function ColumnChart({ bars, format, label, ...rest }: Props) {
  const height = 220;
  const [left, bottom, top] = [72, 24, 10];
  const plotW = WIDTH - left - 8;
  const plotH = height - bottom - top;
  const max = scale(bars);
  const step = plotW / Math.max(bars.length, 1);
  // at most ~12 labels under the bars: every n-th one when there are more months
  const every = Math.ceil(bars.length / 12);
  return (
    <svg
      className="caravan-chart"
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      role="img"
      aria-label={label}
      data-testid={rest['data-testid']}
    >
      {[0, 0.5, 1].map((share) => {
        const y = top + plotH * (1 - share);
        return (
          <g key={share} className="caravan-chart-grid">
            <line x1={left} x2={WIDTH - 8} y1={y} y2={y} />
            <text x={left - 6} y={y + 4} textAnchor="end">
              {format(max * share)}
            </text>
          </g>
        );
      })}
      {bars.map((bar, i) => {
        const h = (bar.value / max) * plotH;
        const x = left + i * step + (step * (1 - BAR_SHARE)) / 2;
        return (
          <g key={bar.key} data-testid="chart-bar" aria-label={`${bar.label}: ${format(bar.value)}`}>
            <title>{bar.title}</title>
            <rect
              className="caravan-chart-bar"
              x={x}
              y={top + plotH - h}
              width={step * BAR_SHARE}
              height={h}
            />
            {i % every === 0 && (
              <text
                className="caravan-chart-label"
                x={x + (step * BAR_SHARE) / 2}
                y={height - 8}
                textAnchor="middle"
              >
                {bar.label}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** Horizontal bars, one a row: the name at the left, the value at the bar's end. */
export function RowChart({ bars, format, label, ...rest }: Props) {
  const [rowH, left, right] = [24, 200, 110];
  const height = bars.length * rowH + 4;
  const plotW = WIDTH - left - right;
  const max = scale(bars);
  return (
    <svg
      className="caravan-chart"
      viewBox={`0 0 ${WIDTH} ${height}`}
      width="100%"
      role="img"
      aria-label={label}
      data-testid={rest['data-testid']}
    >
      {bars.map((bar, i) => {
        const y = 2 + i * rowH;
        const w = (bar.value / max) * plotW;
        return (
          <g key={bar.key} data-testid="chart-bar" aria-label={`${bar.label}: ${format(bar.value)}`}>
            <title>{bar.title}</title>
            <text className="caravan-chart-label" x={left - 8} y={y + rowH / 2 + 4} textAnchor="end">
              {bar.label}
            </text>
            <rect className="caravan-chart-bar" x={left} y={y + 3} width={w} height={rowH - 6} />
            <text className="caravan-chart-value" x={left + w + 6} y={y + rowH / 2 + 4}>
              {format(bar.value)}
            </text>
          </g>
        );
      })}
    </svg>
  );
}

/** Every month from the first to the last ('YYYY-MM'), so a month without orders shows as an empty place. */
export function monthsBetween(first: string, last: string): string[] {
  const index = (m: string) => {
    const [y, mo] = m.split('-').map(Number) as [number, number];
    return y * 12 + mo - 1;
  };
  const out: string[] = [];
  for (let i = index(first); i <= index(last); i++)
    out.push(`${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`);
  return out;
}
