import { IconButton, Input, InputGroup, type InputProps } from '@chakra-ui/react';
import { Eye, EyeOff } from 'lucide-react';
import { useState } from 'react';

export type PasswordInputProps = Omit<InputProps, 'type'>;

/** A password field with a show/hide toggle ('Show password' / 'Hide password'). Use inside a Field.Root. */
export function PasswordInput(props: PasswordInputProps) {
  const [visible, setVisible] = useState(false);
  return (
    <InputGroup
      endElementProps={{ pointerEvents: 'auto', pe: '1' }}
      endElement={
        <IconButton type="button" variant="ghost" size="sm" aria-label={visible ? 'Hide password' : 'Show password'} onClick={() => setVisible((shown) => !shown)}>
          {visible ? <EyeOff /> : <Eye />}
        </IconButton>
      }
    >
      <Input {...props} type={visible ? 'text' : 'password'} />
    </InputGroup>
  );
}
