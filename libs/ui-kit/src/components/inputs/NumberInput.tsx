import { InputGroup, type Intent } from '@blueprintjs/core';
import { parseNumberInput } from '@caravan/contracts';
import { useEffect, useRef, useState } from 'react';

type Props = {
  /** a plain decimal string ('1234.5'), a number for integers, or the raw text while it is not a number */
  value: unknown;
  onChange(value: string | number | null): void;
  integer?: boolean;
  disabled?: boolean;
  intent?: Intent;
  id?: string;
};

const shown = (value: unknown) =>
  value === null || value === undefined ? '' : String(value).replace('.', ',');

/**
 * A number typed as text: '1 234,5' and '1234.5' both become '1234.5'. Text that is not a number
 * ('abc', '1e3') is kept as typed, so the form shows it red and refuses to save it; it never turns
 * into another number.
 */
export function NumberInput({ value, onChange, integer, disabled, intent, id }: Props) {
  const [text, setText] = useState(() => shown(value));
  const emitted = useRef<unknown>(value);
  useEffect(() => {
    // a value from outside (loaded, reset): show it; our own emissions keep the text as typed
    if (value !== emitted.current) setText(shown(value));
    emitted.current = value;
  }, [value]);

  const change = (next: string) => {
    setText(next);
    const parsed = next.trim() === '' ? null : parseNumberInput(next, integer);
    const out = next.trim() === '' ? null : parsed === null ? next : integer ? Number(parsed) : parsed;
    emitted.current = out;
    onChange(out);
  };
  return (
    <InputGroup
      id={id}
      value={text}
      disabled={disabled}
      inputMode={integer ? 'numeric' : 'decimal'}
      intent={intent}
      onValueChange={change}
    />
  );
}
