import { InputGroup } from '@blueprintjs/core';
import {
  DATE_FORMAT,
  DATETIME_FORMAT,
  formatDisplayDate,
  formatDisplayDateTime,
  parseDisplayDate,
  parseDisplayDateTime,
} from '@caravan/contracts';
import { useEffect, useState } from 'react';

type Props = {
  value: string | null | undefined;
  /** ISO day ('YYYY-MM-DD') or, with time, an ISO timestamp; null when cleared. */
  onChange(value: string | null): void;
  withTime?: boolean;
  disabled?: boolean;
  id?: string;
  'aria-label'?: string;
};

/**
 * Date (DD-MM-YYYY) or date-time (DD-MM-YYYY HH:mm) typed as text (spec §5). A value is emitted
 * only when it is a real day between 1900 and 2050; until then the input shows it is not accepted.
 */
export function DateInput({ value, onChange, withTime, disabled, id, ...rest }: Props) {
  const format = withTime ? formatDisplayDateTime : formatDisplayDate;
  const parse = withTime ? parseDisplayDateTime : parseDisplayDate;
  const [text, setText] = useState(format(value));
  useEffect(() => setText(format(value)), [value, format]);
  const valid = text.trim() === '' || parse(text) !== null;

  const change = (next: string) => {
    setText(next);
    if (next.trim() === '') return onChange(null);
    const parsed = parse(next);
    if (parsed) onChange(parsed);
  };
  return (
    <InputGroup
      id={id}
      aria-label={rest['aria-label']}
      value={text}
      disabled={disabled}
      placeholder={withTime ? DATETIME_FORMAT : DATE_FORMAT}
      intent={valid ? 'none' : 'danger'}
      leftIcon={withTime ? 'time' : 'calendar'}
      onValueChange={change}
      inputMode="numeric"
    />
  );
}
