import { Button, InputGroup, Menu, MenuItem, PopoverNext, Spinner, Tag } from '@blueprintjs/core';
import { MESSAGES, NEW_ID, REFERENCE_PAGE_SIZE, type WhereCondition } from '@caravan/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDocumentListQuery, useDocumentSaveMutation } from '../../entityApi';
import { titleOfRow, type QuickCreate, type Values } from '../../fields';
import { useDebounced } from '../../useDebounced';
import { EditDialog } from '../EditDialog';

/** Spec §9: reference search asks for 20 rows and waits 300 ms after typing. */
export const REFERENCE_DEBOUNCE_MS = 300;

/** How a reference list is ordered when the entity has no title. */
const ORDER_BY: Record<string, string> = { user: 'email asc', exchange_rate: 'date desc' };

type Common = {
  entity: string;
  where?: WhereCondition[];
  create?: QuickCreate;
  disabled?: boolean;
  id?: string;
  placeholder?: string;
};
type Single = Common & {
  multiple?: false;
  value: number | null | undefined;
  onChange(id: number | null, row?: Values): void;
};
type Multiple = Common & {
  multiple: true;
  value: number[] | null | undefined;
  onChange(ids: number[]): void;
};

/** The rows behind the chosen ids, to show their titles. */
function useChosen(entity: string, ids: number[]) {
  const { data } = useDocumentListQuery(
    {
      entity,
      params: { where_param: [{ field: 'id', op: 'in', value: ids }], per_page: Math.max(ids.length, 1) },
    },
    { skip: !ids.length },
  );
  return (id: number) => data?.items.find((r) => r.id === id);
}

/**
 * Reference search select (spec §2, §9): a search over the referenced entity, 20 rows a page, typed
 * text debounced by 300 ms, 'ничего не найдено' when empty, an optional add-new dialog, and clear.
 * With `multiple` it keeps a list of ids shown as tags.
 */
export function ReferenceSelect(props: Single | Multiple) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [creating, setCreating] = useState(false);
  const debounced = useDebounced(search, REFERENCE_DEBOUNCE_MS);
  const [save] = useDocumentSaveMutation();
  const chosenIds = props.multiple ? (props.value ?? []) : props.value ? [props.value] : [];
  const chosen = useChosen(props.entity, chosenIds);
  const { data, isFetching, error } = useDocumentListQuery(
    {
      entity: props.entity,
      params: {
        per_page: REFERENCE_PAGE_SIZE,
        order_by: ORDER_BY[props.entity] ?? 'title asc',
        ...(debounced ? { search: debounced } : {}),
        ...(props.where?.length ? { where_param: props.where } : {}),
      },
    },
    { skip: !open },
  );

  const pick = (row: Values & { id: number }) => {
    if (props.multiple) {
      if (!chosenIds.includes(row.id)) props.onChange([...chosenIds, row.id]);
    } else {
      props.onChange(row.id, row);
      setOpen(false);
    }
  };
  const createNew = async (values: Values) => {
    const row = await save({
      entity: props.entity,
      values: { id: NEW_ID, ...(props.create?.toValues?.(values) ?? values) },
    }).unwrap();
    pick(row);
  };

  const rows = data?.items ?? [];
  // the rows shown are not yet those of the typed text: a click now could land on a row about to move
  const settling = search !== debounced || isFetching;
  const menu = (
    <div className="caravan-ref-menu">
      <InputGroup
        autoFocus
        leftIcon="search"
        placeholder={t('common.search')}
        value={search}
        onValueChange={setSearch}
        aria-label={t('common.search')}
        rightElement={isFetching ? <Spinner size={16} /> : undefined}
      />
      <Menu aria-busy={settling}>
        {error ? (
          <MenuItem disabled text={(error as { message?: string }).message ?? MESSAGES.somethingWentWrong} />
        ) : rows.length === 0 && !isFetching ? (
          <MenuItem disabled text={t('common.nothingFound')} />
        ) : (
          rows.map((row) => (
            <MenuItem
              key={row.id}
              text={titleOfRow(row)}
              active={chosenIds.includes(row.id)}
              onClick={() => pick(row)}
              shouldDismissPopover={!props.multiple}
            />
          ))
        )}
        {props.create && (
          <MenuItem
            icon="add"
            intent="primary"
            text={props.create.title}
            onClick={() => {
              setOpen(false);
              setCreating(true);
            }}
          />
        )}
      </Menu>
    </div>
  );

  const single = !props.multiple && props.value ? chosen(props.value) : undefined;
  return (
    <div className={`caravan-ref-select${props.multiple ? '' : ' caravan-single'}`}>
      {props.multiple && (
        <div className="caravan-ref-tags">
          {chosenIds.map((id) => (
            <Tag
              key={id}
              minimal
              onRemove={props.disabled ? undefined : () => props.onChange(chosenIds.filter((x) => x !== id))}
            >
              {titleOfRow(chosen(id)) || `#${id}`}
            </Tag>
          ))}
        </div>
      )}
      <PopoverNext
        content={menu}
        isOpen={open}
        onInteraction={(next) => setOpen(next)}
        placement="bottom-start"
        disabled={props.disabled}
        autoFocus={false}
      >
        <Button
          id={props.id}
          alignText="start"
          endIcon="caret-down"
          disabled={props.disabled}
          text={
            props.multiple
              ? t('common.add')
              : single
                ? titleOfRow(single)
                : props.value
                  ? `#${props.value}`
                  : (props.placeholder ?? t('common.choose'))
          }
          className="caravan-ref-button"
        />
      </PopoverNext>
      {!props.multiple && props.value && !props.disabled ? (
        <Button
          variant="minimal"
          icon="cross"
          aria-label={t('common.clear')}
          onClick={() => props.onChange(null)}
        />
      ) : null}
      {props.create && (
        <EditDialog
          title={props.create.title}
          fields={props.create.fields}
          isOpen={creating}
          onClose={() => setCreating(false)}
          onSubmit={createNew}
        />
      )}
    </div>
  );
}
