import { Checkbox, HTMLSelect, InputGroup, TextArea } from '@blueprintjs/core';
import type { Attachment, WorkingHours } from '@caravan/contracts';
import { useTranslation } from 'react-i18next';
import { fieldError, titleOfRow, type FieldInputProps, type Values } from '../fields';
import { ImageList, FileList, SingleImage } from './inputs/Attachments';
import { DateInput } from './inputs/DateInput';
import { NumberInput } from './inputs/NumberInput';
import { AddressInput, LookupButton } from './inputs/Lookups';
import { PhoneInput } from './inputs/PhoneInput';
import { ReferenceSelect } from './inputs/ReferenceSelect';
import { TableInput, WorkingHoursInput } from './inputs/TableInput';

const str = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** One input for any field kind: what the item pages, the edit dialog and table cells render. */
export function FieldInput({ field, value, values, onChange, onPatch, disabled, id }: FieldInputProps) {
  const { t, i18n } = useTranslation();
  const error = fieldError(field, value, values, i18n.language);
  const helper = error ? <div className="bp6-form-helper-text caravan-error">{error}</div> : null;
  switch (field.kind ?? 'text') {
    case 'custom':
      return <>{field.render?.({ field, value, values, onChange, onPatch, disabled, id })}</>;
    case 'textarea':
      return (
        <TextArea
          id={id}
          fill
          autoResize
          value={str(value)}
          disabled={disabled}
          onChange={(e) => onChange(e.currentTarget.value)}
        />
      );
    case 'integer':
    case 'decimal':
      return (
        <>
          <NumberInput
            id={id}
            value={value}
            integer={field.kind === 'integer'}
            disabled={disabled}
            intent={error ? 'danger' : 'none'}
            onChange={onChange}
          />
          {helper}
        </>
      );
    case 'select':
      return (
        <HTMLSelect
          id={id}
          fill
          value={str(value)}
          disabled={disabled}
          onChange={(e) => {
            const next = e.currentTarget.value; // read now: the event is released after this handler
            onChange(next === '' ? null : next);
          }}
          options={[
            ...(field.required ? [] : [{ value: '', label: '—' }]),
            ...(field.options ?? []).map((o) => ({
              value: o.value,
              label: t(`enums.${field.name}.${o.value}`, { defaultValue: o.label }),
            })),
          ]}
        />
      );
    case 'checkbox':
      return (
        <Checkbox
          id={id}
          checked={Boolean(value)}
          disabled={disabled}
          onChange={(e) => onChange(e.currentTarget.checked)}
        />
      );
    case 'date':
    case 'datetime':
      return (
        <>
          <DateInput
            id={id}
            value={value as string | null}
            withTime={field.kind === 'datetime'}
            disabled={disabled}
            intent={error ? 'danger' : 'none'}
            onChange={onChange}
          />
          {helper}
        </>
      );
    case 'phone':
      return <PhoneInput id={id} value={value as string | null} disabled={disabled} onChange={onChange} />;
    case 'ref':
      return (
        <ReferenceSelect
          id={id}
          entity={field.entity!}
          value={value as number | null}
          where={field.where?.(values)}
          create={field.create}
          disabled={disabled}
          onChange={(v, row) =>
            field.titleTo
              ? onPatch({ [field.name]: v, [field.titleTo]: row ? titleOfRow(row) : '' })
              : onChange(v)
          }
        />
      );
    case 'refs':
      return (
        <ReferenceSelect
          multiple
          id={id}
          entity={field.entity!}
          value={value as number[] | null}
          where={field.where?.(values)}
          create={field.create}
          disabled={disabled}
          onChange={onChange}
        />
      );
    case 'images':
      return <ImageList value={value as Attachment[] | null} disabled={disabled} onChange={onChange} />;
    case 'image':
      return <SingleImage value={value as string | null} disabled={disabled} onChange={onChange} />;
    case 'files':
      return (
        <FileList
          value={value as Attachment[] | null}
          disabled={disabled}
          extensions={field.extensions}
          onChange={onChange}
        />
      );
    case 'address':
      return <AddressInput id={id} value={value as string | null} disabled={disabled} onChange={onChange} />;
    case 'table':
      return (
        <TableInput field={field} value={value as Values[] | null} disabled={disabled} onChange={onChange} />
      );
    case 'hours':
      return (
        <WorkingHoursInput value={value as WorkingHours | null} disabled={disabled} onChange={onChange} />
      );
    default:
      return (
        <>
          <InputGroup
            id={id}
            value={str(value)}
            disabled={disabled}
            intent={error ? 'danger' : 'none'}
            onValueChange={onChange}
            rightElement={
              field.lookup ? (
                <LookupButton kind={field.lookup} query={str(value)} disabled={disabled} onFill={onPatch} />
              ) : undefined
            }
          />
          {helper}
        </>
      );
  }
}
