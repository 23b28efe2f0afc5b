import { InputGroup, type Intent } from '@blueprintjs/core';
import {
  DATE_FORMAT,
  DATETIME_FORMAT,
  formatDisplayDate,
  formatDisplayDateTime,
  isIsoDate,
  isIsoDateTime,
  parseDisplayDate,
  parseDisplayDateTime,
} from '@caravan/contracts';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

type Props = {
  value: string | null | undefined;
  /** ISO day ('YYYY-MM-DD') or, with time, an ISO timestamp; the text typed when it is not one; null when cleared. */
  onChange(value: string | null): void;
  withTime?: boolean;
  disabled?: boolean;
  id?: string;
  'aria-label'?: string;
  intent?: Intent;
};

/**
 * Date (DD-MM-YYYY) or date-time (DD-MM-YYYY HH:mm) typed as text (spec §5). A real day between 1900
 * and 2050 is emitted as ISO; anything else ('31-02-2026', '01-01-2100') is emitted as the text typed,
 * so the form shows it red and refuses to save it rather than keeping another date.
 */
export function DateInput({ value, onChange, withTime, disabled, id, intent, ...rest }: Props) {
  const { t } = useTranslation();
  const format = withTime ? formatDisplayDateTime : formatDisplayDate;
  const parse = withTime ? parseDisplayDateTime : parseDisplayDate;
  const isValue = withTime ? isIsoDateTime : isIsoDate;
  const [text, setText] = useState(() => (value && !isValue(value) ? value : format(value)));
  const emitted = useRef<string | null | undefined>(value);
  useEffect(() => {
    // a value from outside (loaded, reset): show it; our own emissions keep the text as typed
    if (value !== emitted.current) setText(value && !isValue(value) ? value : format(value));
    emitted.current = value;
  }, [value, format, isValue]);
  const valid = text.trim() === '' || parse(text) !== null;

  const change = (next: string) => {
    setText(next);
    const out = next.trim() === '' ? null : (parse(next) ?? next);
    emitted.current = out;
    onChange(out);
  };
  return (
    <InputGroup
      id={id}
      aria-label={rest['aria-label']}
      value={text}
      disabled={disabled}
      placeholder={t(withTime ? 'dates.dateTimePlaceholder' : 'dates.datePlaceholder', {
        defaultValue: withTime ? DATETIME_FORMAT : DATE_FORMAT,
      })}
      intent={valid ? (intent ?? 'none') : 'danger'}
      leftIcon={withTime ? 'time' : 'calendar'}
      onValueChange={change}
      inputMode="numeric"
    />
  );
}
