import { Box, Button, Field, HStack, IconButton, Input, Spinner } from '@chakra-ui/react';
import { ArrowLeft, ArrowRight, RotateCw } from 'lucide-react';
import type { FormEvent, Ref } from 'react';
import { texts } from './texts';

export interface AddressBarProps {
  value: string;
  onChange: (value: string) => void;
  /** The user asked to go to what is typed. */
  onSubmit: () => void;
  onBack: () => void;
  onForward: () => void;
  onReload: () => void;
  canGoBack: boolean;
  canGoForward: boolean;
  canReload: boolean;
  loading: boolean;
  /** Why the typed address was refused. */
  error: string | null;
  inputRef?: Ref<HTMLInputElement>;
  /** Until the page is interactive (a prerendered page before hydration), nothing typed would be kept. */
  disabled?: boolean;
}

/** Back, Forward, Reload and the address field of the live browser. */
export function AddressBar({ inputRef, ...props }: AddressBarProps) {
  const { onSubmit } = props;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Box as="form" onSubmit={submit} aria-label="Live browser address" p={{ base: '2', md: '3' }} borderBottomWidth="1px" bg="bg.subtle">
      <Field.Root invalid={props.error !== null}>
        <HStack gap={{ base: '1', md: '2' }} w="full">
          <IconButton type="button" aria-label={texts.back} size="sm" variant="ghost" disabled={!props.canGoBack} onClick={props.onBack}>
            <ArrowLeft />
          </IconButton>
          <IconButton type="button" aria-label={texts.forward} size="sm" variant="ghost" disabled={!props.canGoForward} onClick={props.onForward}>
            <ArrowRight />
          </IconButton>
          <IconButton type="button" aria-label={texts.reload} size="sm" variant="ghost" disabled={!props.canReload} onClick={props.onReload}>
            {props.loading ? <Spinner size="xs" /> : <RotateCw />}
          </IconButton>
          <Input
            ref={inputRef}
            disabled={props.disabled}
            aria-label={texts.addressLabel}
            placeholder={texts.addressPlaceholder}
            value={props.value}
            onChange={(event) => props.onChange(event.target.value)}
            size="sm"
            flex="1"
            minW="0"
            bg="bg"
            fontFamily="mono"
            inputMode="url"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            data-testid="browser-address"
          />
          <Button type="submit" size="sm" colorPalette="brand" disabled={props.disabled}>
            {texts.go}
          </Button>
        </HStack>
        {props.error && <Field.ErrorText role="alert">{props.error}</Field.ErrorText>}
      </Field.Root>
    </Box>
  );
}
