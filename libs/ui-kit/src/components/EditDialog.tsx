import { Button, Dialog, DialogBody, DialogFooter, FormGroup } from '@blueprintjs/core';
import { MESSAGES } from '@caravan/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from '../i18n';
import { invalidFields, missingRequired, type FieldDef, type Values } from '../fields';
import { toast } from '../toaster';
import { FieldInput } from './FieldInput';

type Props = {
  title: string;
  fields: FieldDef[];
  initial?: Values;
  isOpen: boolean;
  onClose(): void;
  /** Saves; rejects with the server's message. */
  onSubmit(values: Values): Promise<unknown>;
  /** The toast after a save (default 'изменения сохранены'); the submit button's text (default 'сохранить'). */
  successMessage?: string | ((values: Values) => string);
  submitText?: string;
  /** Shown above the fields (a notice, a hint). */
  children?: ReactNode;
  /** The entity the fields belong to: its own translations of their labels. */
  entity?: string;
};

/** Generic edit dialog: required fields block the save with one toast per field ('не заполнено поле: …'). */
export function EditDialog(props: Props) {
  const { title, fields, initial, isOpen, onClose, onSubmit, successMessage, submitText, children } = props;
  const { t, i18n } = useTranslation();
  const [values, setValues] = useState<Values>(initial ?? {});
  const [saving, setSaving] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    e.stopPropagation(); // a dialog opened from a form must not submit that form too
    const label = (f: FieldDef) => fieldLabel(t, f, props.entity);
    const missing = missingRequired(fields, values);
    missing.forEach((f) => void toast(MESSAGES.fieldRequiredInDialog(label(f)), 'warning'));
    const invalid = invalidFields(fields, values, { label, language: i18n.language });
    invalid.forEach((message) => void toast(message, 'warning'));
    if (missing.length || invalid.length) return;
    setSaving(true);
    try {
      await onSubmit(values);
      const message = typeof successMessage === 'function' ? successMessage(values) : successMessage;
      void toast(message ?? t('common.changesSaved'), 'success');
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
          {children}
          {fields.map((f) => (
            <FormGroup
              key={f.name}
              label={fieldLabel(t, f, props.entity)}
              labelFor={`dialog-${f.name}`}
              labelInfo={f.required ? '*' : undefined}
            >
              <FieldInput
                id={`dialog-${f.name}`}
                field={f}
                value={values[f.name]}
                values={values}
                onChange={(v) => setValues((prev) => ({ ...prev, [f.name]: v }))}
                onPatch={(patch) => setValues((prev) => ({ ...prev, ...patch }))}
              />
            </FormGroup>
          ))}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={t('common.cancel')} onClick={onClose} />
              <Button type="submit" intent="primary" text={submitText ?? t('common.save')} loading={saving} />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
