import { Box, Button, HStack, Text } from '@chakra-ui/react';
import { Check, Copy } from 'lucide-react';
import { useEffect, useState } from 'react';
import { notify } from './toaster';

/** A button that copies `value` to the clipboard and says 'Copied' for a moment; a refused copy explains itself. */
export function CopyButton({
  value,
  label = 'Copy',
  copiedLabel = 'Copied',
  ariaLabel,
  failure = 'Could not copy',
  size = 'xs',
}: {
  value: string;
  label?: string;
  copiedLabel?: string;
  ariaLabel?: string;
  /** The title of the toast when the clipboard refuses. */
  failure?: string;
  size?: 'xs' | 'md';
}) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      notify.error(failure, 'Select the text and copy it by hand.');
    }
  };
  return (
    // The name says what the button shows (Copied), as the visible label must be part of the accessible name.
    <Button size={size} variant="outline" onClick={() => void copy()} aria-label={copied ? copiedLabel : ariaLabel} bg="bg">
      {copied ? <Check aria-hidden /> : <Copy aria-hidden />}
      <span aria-live="polite">{copied ? copiedLabel : label}</span>
    </Button>
  );
}

/** Code or a secret in a monospace box that wraps (never scrolls the page sideways), with a copy button. */
export function CodeBlock({ code, label, copyLabel, testId }: { code: string; label?: string; copyLabel?: string; testId?: string }) {
  const pre = (
    <Box as="pre" m="0" px="3" py="2" flex="1" minW="0" fontFamily="mono" fontSize="xs" whiteSpace="pre-wrap" overflowWrap="anywhere" data-testid={testId}>
      {code}
    </Box>
  );
  const button = <CopyButton value={code} ariaLabel={copyLabel ?? (label ? `Copy ${label}` : 'Copy')} />;
  if (!label) {
    return (
      <HStack borderWidth="1px" borderRadius="md" bg="bg.subtle" minW="0" align="start" gap="0" pe="1.5" py="1">
        {pre}
        {button}
      </HStack>
    );
  }
  return (
    <Box borderWidth="1px" borderRadius="md" bg="bg.subtle" minW="0">
      <HStack justify="space-between" px="3" py="1.5" borderBottomWidth="1px" gap="2">
        <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wide">
          {label}
        </Text>
        {button}
      </HStack>
      {pre}
    </Box>
  );
}
