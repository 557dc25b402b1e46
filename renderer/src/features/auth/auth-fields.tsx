import { Field, Input } from '@chakra-ui/react';
import { PasswordInput } from '../../ui/password-input';

interface TextFieldProps {
  value: string;
  onChange: (value: string) => void;
}

/** The required, labelled email field of the auth forms. */
export function EmailField({ value, onChange, autoFocus }: TextFieldProps & { autoFocus?: boolean }) {
  return (
    <Field.Root required>
      <Field.Label>Email</Field.Label>
      <Input type="email" name="email" autoComplete="email" placeholder="you@example.com" required autoFocus={autoFocus} value={value} onChange={(e) => onChange(e.target.value)} />
    </Field.Root>
  );
}

/** A required, labelled password field with the show/hide toggle. */
export function PasswordField({ label, name, autoComplete, value, onChange }: TextFieldProps & { label: string; name: string; autoComplete: 'current-password' | 'new-password' }) {
  return (
    <Field.Root required>
      <Field.Label>{label}</Field.Label>
      <PasswordInput name={name} autoComplete={autoComplete} required value={value} onChange={(e) => onChange(e.target.value)} />
    </Field.Root>
  );
}

/** A new password and its confirmation (sign-up, password reset). */
export function NewPasswordFields({
  label,
  password,
  confirmPassword,
  onPassword,
  onConfirmPassword,
}: {
  label: string;
  password: string;
  confirmPassword: string;
  onPassword: (value: string) => void;
  onConfirmPassword: (value: string) => void;
}) {
  return (
    <>
      <PasswordField label={label} name="password" autoComplete="new-password" value={password} onChange={onPassword} />
      <PasswordField label="Confirm Password" name="confirmPassword" autoComplete="new-password" value={confirmPassword} onChange={onConfirmPassword} />
    </>
  );
}
