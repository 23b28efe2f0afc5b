import { Button, HTMLTable, InputGroup, Switch } from '@blueprintjs/core';
import { WEEKDAYS, WEEKDAY_LABELS, type WorkingHours } from '@caravan/contracts';
import { useTranslation } from 'react-i18next';
import { getPath, setPath, type FieldDef, type Values } from '../../fields';
import { FieldInput } from '../FieldInput';

/**
 * A list of small records edited in place (a density table, an operator's clients, delivery data):
 * one row each, one input per column, add and remove rows.
 */
export function TableInput(props: {
  field: FieldDef;
  value: Values[] | null | undefined;
  onChange(rows: Values[]): void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const rows = props.value ?? [];
  const columns = props.field.columns ?? [];
  const setRow = (i: number, row: Values) => props.onChange(rows.map((r, j) => (j === i ? row : r)));
  return (
    <div className="caravan-table-input caravan-scroll-x" data-testid={`table-${props.field.name}`}>
      <HTMLTable compact>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.name}>
                {t(`fields.${c.name}`, { defaultValue: c.label })}
                {c.required ? ' *' : ''}
              </th>
            ))}
            <th />
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => (
            <tr key={i}>
              {columns.map((c) => (
                <td key={c.name}>
                  <FieldInput
                    field={c}
                    value={getPath(row, c.name)}
                    values={row}
                    disabled={props.disabled}
                    id={`${props.field.name}-${i}-${c.name}`}
                    onChange={(v) => setRow(i, setPath(row, c.name, v))}
                    onPatch={(patch) => setRow(i, { ...row, ...patch })}
                  />
                </td>
              ))}
              <td>
                {!props.disabled && (
                  <Button
                    variant="minimal"
                    icon="trash"
                    aria-label={t('common.removeRow')}
                    onClick={() => props.onChange(rows.filter((_, j) => j !== i))}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {!props.disabled && (
        <Button
          icon="add"
          variant="minimal"
          text={t('common.addRow')}
          onClick={() => props.onChange([...rows, { ...(props.field.newRow ?? {}) }])}
        />
      )}
    </div>
  );
}

/** Working hours per weekday (Moscow time): a day is either off or open from–to. */
export function WorkingHoursInput(props: {
  value: WorkingHours | null | undefined;
  onChange(value: WorkingHours): void;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const hours = (props.value ?? {}) as Partial<WorkingHours>;
  const set = (day: (typeof WEEKDAYS)[number], value: WorkingHours[typeof day]) =>
    props.onChange({
      ...Object.fromEntries(WEEKDAYS.map((d) => [d, hours[d] ?? null])),
      [day]: value,
    } as WorkingHours);
  return (
    <div className="caravan-hours-box caravan-scroll-x">
      <HTMLTable compact className="caravan-hours">
        <tbody>
          {WEEKDAYS.map((day) => {
            const open = hours[day] ?? null;
            return (
              <tr key={day}>
                <th>{t(`weekdays.${day}`, { defaultValue: WEEKDAY_LABELS[day] })}</th>
                <td>
                  <Switch
                    checked={open !== null}
                    disabled={props.disabled}
                    label={open ? t('hours.open') : t('hours.dayOff')}
                    onChange={(e) =>
                      set(day, e.currentTarget.checked ? { from: '09:00', to: '18:00' } : null)
                    }
                  />
                </td>
                <td>
                  {open && (
                    <span className="caravan-hours-range">
                      <InputGroup
                        className="caravan-time"
                        placeholder="ЧЧ:ММ"
                        maxLength={5}
                        aria-label={`${WEEKDAY_LABELS[day]}: ${t('hours.from')}`}
                        value={open.from}
                        disabled={props.disabled}
                        onValueChange={(from) => set(day, { ...open, from })}
                      />
                      –
                      <InputGroup
                        className="caravan-time"
                        placeholder="ЧЧ:ММ"
                        maxLength={5}
                        aria-label={`${WEEKDAY_LABELS[day]}: ${t('hours.to')}`}
                        value={open.to}
                        disabled={props.disabled}
                        onValueChange={(to) => set(day, { ...open, to })}
                      />
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </div>
  );
}
