import { Button, Card, HTMLSelect, Menu, MenuItem, PopoverNext, Switch, TextArea } from '@blueprintjs/core';
import type { WhereCondition } from '@caravan/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isEmpty, kindError, rawWhereExample, type FieldDef } from '../fields';
import { FieldInput } from './FieldInput';

const COMPARABLE = new Set(['integer', 'decimal', 'date', 'datetime']);
const FILTERABLE = new Set([
  'text',
  'textarea',
  'phone',
  'address',
  'select',
  'checkbox',
  'ref',
  'refs',
  ...COMPARABLE,
]);

export type ActiveFilter = { field: FieldDef; op: WhereCondition['op']; value: unknown };

export const filterableFields = (fields: FieldDef[]) =>
  fields.filter((f) => FILTERABLE.has(f.kind ?? 'text'));

const defaultOp = (f: FieldDef): WhereCondition['op'] => {
  const kind = f.kind ?? 'text';
  if (kind === 'datetime') return '>';
  if (COMPARABLE.has(kind)) return '=';
  if (kind === 'refs') return 'contains';
  if (['select', 'checkbox', 'ref'].includes(kind)) return '=';
  return 'like';
};

/** Filters with a value become conditions (spec §5: a numeric filter only with a value). */
export const filterConditions = (filters: ActiveFilter[]): WhereCondition[] =>
  filters
    .filter((f) => !isEmpty(f.value) || (f.field.kind === 'checkbox' && f.value === false))
    // a value the input shows red (a word in a number filter) is not applied until it is one
    .filter((f) => isEmpty(f.value) || kindError(f.field, f.value) === null)
    .map((f) => ({ field: f.field.name, op: f.op, value: f.value as WhereCondition['value'] }));

/** Filters as the list keeps them in its URL: `[[field, op, value], …]` (Back from an item restores them). */
export const filtersToUrl = (filters: ActiveFilter[]): string | null =>
  filters.length ? JSON.stringify(filters.map((f) => [f.field.name, f.op, f.value ?? null])) : null;

/** The URL's filters over the fields offered; anything unknown or malformed is dropped, never an error. */
export function filtersFromUrl(text: string | null, fields: FieldDef[]): ActiveFilter[] {
  if (!text) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return [];
  }
  if (!Array.isArray(parsed)) return [];
  return parsed.flatMap((entry): ActiveFilter[] => {
    if (!Array.isArray(entry) || entry.length !== 3) return [];
    const [name, op, value] = entry as [unknown, unknown, unknown];
    const field = fields.find((f) => f.name === name);
    if (!field || typeof op !== 'string') return [];
    return [{ field: { ...field, required: false }, op: op as WhereCondition['op'], value }];
  });
}

/** The filter menu: pick a field to filter by. */
export function FilterMenu(props: { fields: FieldDef[]; onAdd(filter: ActiveFilter): void; onRaw?(): void }) {
  const { t } = useTranslation();
  return (
    <PopoverNext
      placement="bottom-end"
      content={
        <Menu>
          {props.fields.map((f) => (
            <MenuItem
              key={f.name}
              text={t(`fields.${f.name}`, { defaultValue: f.label })}
              onClick={() =>
                props.onAdd({
                  field: { ...f, required: false },
                  op: defaultOp(f),
                  value: f.kind === 'checkbox' ? true : null,
                })
              }
            />
          ))}
          {props.onRaw && <MenuItem icon="code" text={t('list.rawWhere')} onClick={props.onRaw} />}
        </Menu>
      }
    >
      <Button icon="filter" text={t('list.filter')} endIcon="caret-down" />
    </PopoverNext>
  );
}

/**
 * The filter panel: one row per active filter (comparison >, = or < for numbers and dates), and for
 * admins the raw where box, which the service parses into the same structured filter.
 */
export function FilterPanel(props: {
  filters: ActiveFilter[];
  onChange(filters: ActiveFilter[]): void;
  /** the hand-written condition applied and the list's fields its example names */
  raw?: { value: string; fields: FieldDef[]; onApply(text: string): void };
}) {
  const { t } = useTranslation();
  const set = (i: number, patch: Partial<ActiveFilter>) =>
    props.onChange(props.filters.map((f, j) => (j === i ? { ...f, ...patch } : f)));
  if (!props.filters.length && !props.raw) return null;
  return (
    <Card compact className="caravan-filter-panel" data-testid="filter-panel">
      {props.filters.map((f, i) => (
        <div key={`${f.field.name}-${i}`} className="caravan-filter-row">
          <label className="caravan-filter-label" htmlFor={`filter-${f.field.name}-${i}`}>
            {t(`fields.${f.field.name}`, { defaultValue: f.field.label })}
          </label>
          {COMPARABLE.has(f.field.kind ?? 'text') && (
            <HTMLSelect
              aria-label={t('list.comparison')}
              value={f.op}
              options={['>', '=', '<']}
              onChange={(e) => {
                const op = e.currentTarget.value as WhereCondition['op'];
                set(i, { op });
              }}
            />
          )}
          <div className="caravan-filter-value">
            {f.field.kind === 'checkbox' ? (
              <Switch
                checked={Boolean(f.value)}
                onChange={(e) => set(i, { value: e.currentTarget.checked })}
              />
            ) : (
              <FieldInput
                id={`filter-${f.field.name}-${i}`}
                field={{ ...f.field, validate: undefined, lookup: undefined }}
                value={f.value}
                values={{}}
                onChange={(value) => set(i, { value })}
                onPatch={() => {}}
              />
            )}
          </div>
          <Button
            variant="minimal"
            icon="cross"
            aria-label={t('list.removeFilter')}
            onClick={() => props.onChange(props.filters.filter((_, j) => j !== i))}
          />
        </div>
      ))}
      {props.raw && <RawWhere key={props.raw.value} {...props.raw} />}
    </Card>
  );
}

/** The admin's condition box; keyed by the applied condition, so a reset empties it too. */
function RawWhere(props: { value: string; fields: FieldDef[]; onApply(text: string): void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(props.value);
  return (
    <div className="caravan-filter-row">
      <label className="caravan-filter-label" htmlFor="filter-raw-where">
        {t('list.rawWhere')}
      </label>
      <TextArea
        id="filter-raw-where"
        className="caravan-filter-value"
        aria-label={t('list.rawWhere')}
        placeholder={rawWhereExample(props.fields)}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <Button text={t('list.apply')} onClick={() => props.onApply(text.trim())} />
    </div>
  );
}
