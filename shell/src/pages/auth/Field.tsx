import { FormGroup, InputGroup } from '@blueprintjs/core';

type Props = {
  id: string;
  label: string;
  value: string;
  onChange(value: string): void;
  error?: string;
  type?: 'text' | 'email' | 'password';
  autoComplete?: string;
};

/** A labelled input with its validation message under it. */
export function Field({ id, label, value, onChange, error, type = 'text', autoComplete }: Props) {
  return (
    <FormGroup label={label} labelFor={id} helperText={error} intent={error ? 'danger' : 'none'}>
      <InputGroup
        id={id}
        type={type}
        value={value}
        onValueChange={onChange}
        autoComplete={autoComplete}
        intent={error ? 'danger' : 'none'}
      />
    </FormGroup>
  );
}
