import { InputGroup } from '@blueprintjs/core';
import { isValidPhone, PHONE_MESSAGE } from '@caravan/contracts';

/** '+7' and ten more digits (spec §5); anything else is marked with the spec's message. */
export function PhoneInput(props: {
  value: string | null | undefined;
  onChange(value: string | null): void;
  disabled?: boolean;
  id?: string;
}) {
  const value = props.value ?? '';
  const invalid = value !== '' && !isValidPhone(value);
  return (
    <>
      <InputGroup
        id={props.id}
        value={value}
        disabled={props.disabled}
        placeholder="+79991234567"
        leftIcon="phone"
        intent={invalid ? 'danger' : 'none'}
        onValueChange={(v) => props.onChange(v.replace(/[\s()-]/g, '') || null)}
        inputMode="tel"
      />
      {invalid && <div className="bp6-form-helper-text caravan-error">{PHONE_MESSAGE}</div>}
    </>
  );
}
