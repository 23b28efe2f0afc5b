import {
  Button,
  Checkbox,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLSelect,
  InputGroup,
  NumericInput,
} from '@blueprintjs/core';
import { MESSAGES } from '@caravan/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../toaster';

export type FieldDef = {
  name: string;
  label: string;
  type?: 'text' | 'number' | 'checkbox' | 'select';
  options?: { value: string; label: string }[];
  required?: boolean;
};

type Props = {
  title: string;
  fields: FieldDef[];
  initial?: Record<string, unknown>;
  isOpen: boolean;
  onClose(): void;
  /** Saves; rejects with the server's message. */
  onSubmit(values: Record<string, unknown>): Promise<unknown>;
};

/** Generic edit dialog: required fields block the save with one toast per field. */
export function EditDialog({ title, fields, initial, isOpen, onClose, onSubmit }: Props) {
  const { t } = useTranslation();
  const [values, setValues] = useState<Record<string, unknown>>(initial ?? {});
  const [saving, setSaving] = useState(false);
  const set = (name: string, value: unknown) => setValues((v) => ({ ...v, [name]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const missing = fields.filter(
      (f) => f.required && (values[f.name] === undefined || values[f.name] === ''),
    );
    if (missing.length) {
      missing.forEach((f) => void toast(MESSAGES.fieldRequired(f.label), 'warning'));
      return;
    }
    setSaving(true);
    try {
      await onSubmit(values);
      void toast(t('common.changesSaved'), 'success');
      setValues(initial ?? {});
      onClose();
    } catch (err) {
      void toast((err as { message?: string }).message ?? MESSAGES.somethingWentWrong, 'danger');
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog title={title} isOpen={isOpen} onClose={onClose}>
      <form onSubmit={submit}>
        <DialogBody>
          {fields.map((f) => (
            <FormGroup
              key={f.name}
              label={t(`fields.${f.name}`, { defaultValue: f.label })}
              labelFor={`field-${f.name}`}
              labelInfo={f.required ? '*' : undefined}
            >
              {f.type === 'checkbox' ? (
                <Checkbox
                  id={`field-${f.name}`}
                  checked={Boolean(values[f.name])}
                  onChange={(e) => set(f.name, e.currentTarget.checked)}
                />
              ) : f.type === 'number' ? (
                <NumericInput
                  id={`field-${f.name}`}
                  fill
                  value={(values[f.name] as number | undefined) ?? ''}
                  onValueChange={(n) => set(f.name, Number.isNaN(n) ? undefined : n)}
                />
              ) : f.type === 'select' ? (
                <HTMLSelect
                  id={`field-${f.name}`}
                  fill
                  value={String(values[f.name] ?? '')}
                  options={f.options}
                  onChange={(e) => set(f.name, e.currentTarget.value)}
                />
              ) : (
                <InputGroup
                  id={`field-${f.name}`}
                  value={String(values[f.name] ?? '')}
                  onValueChange={(v) => set(f.name, v)}
                />
              )}
            </FormGroup>
          ))}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <Button type="submit" intent="primary" text={t('common.save')} loading={saving} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
