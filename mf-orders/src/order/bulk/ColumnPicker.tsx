import { Button, Checkbox, PopoverNext } from '@blueprintjs/core';
import { POSITION_COLUMNS, type PositionColumn } from '@caravan/contracts';
import { setCurrentUser, toast, type AppStore } from '@caravan/ui-kit';
import { useTranslation } from 'react-i18next';
import { useDispatch } from 'react-redux';
import { useSettingsUpdateMutation } from '../api';
import { COLUMNS, type ColumnContext } from '../positionColumns';

/** Doc mode's column picker (spec §2): the user's choice is kept in their settings and follows them. */
export function ColumnPicker({
  chosen,
  context,
}: {
  chosen: readonly PositionColumn[];
  context: ColumnContext;
}) {
  const { t } = useTranslation();
  const dispatch = useDispatch<AppStore['dispatch']>();
  const [update, { isLoading }] = useSettingsUpdateMutation();
  const store = async (columns: PositionColumn[]) => {
    try {
      dispatch(setCurrentUser(await update({ position_doc_columns: columns }).unwrap()));
    } catch (err) {
      void toast((err as { message: string }).message, 'danger');
    }
  };
  const toggle = (column: PositionColumn) => {
    const next = chosen.includes(column) ? chosen.filter((c) => c !== column) : [...chosen, column];
    // the table's order, not the order of clicks
    void store(POSITION_COLUMNS.filter((c) => next.includes(c)));
  };
  return (
    <PopoverNext
      content={
        <div className="caravan-column-picker" data-testid="column-picker">
          {POSITION_COLUMNS.map((c) => (
            <Checkbox
              key={c}
              label={COLUMNS[c].label(context.t)}
              checked={chosen.includes(c)}
              // the last column stays: a table without columns shows nothing
              disabled={isLoading || (chosen.length === 1 && chosen.includes(c))}
              onChange={() => toggle(c)}
            />
          ))}
          <Button
            size="small"
            variant="minimal"
            icon="undo"
            text={t('orders.bulk.defaultColumns')}
            onClick={() => void store([])}
          />
        </div>
      }
    >
      <Button size="small" icon="column-layout" text={t('orders.bulk.columns')} />
    </PopoverNext>
  );
}
