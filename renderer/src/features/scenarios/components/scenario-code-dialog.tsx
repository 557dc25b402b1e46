import { Box, Button, HStack, Text } from '@chakra-ui/react';
import type { Scenario } from '@common/scenarios';
import { Check, Copy, Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { PanelDialog } from '../../../ui/panel-dialog';
import { notify } from '../../../ui/toaster';
import { specFileName } from '../scenario-format';
import { saveBlob } from '../hooks/use-run-artifact';

/** View Code: the scenario's Playwright test file, with Copy and Download. */
export function ScenarioCodeDialog({ scenario, name, onClose }: { scenario: Scenario | null; name: string; onClose: () => void }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const code = scenario?.scenario_code ?? '';
  const fileName = specFileName(name);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      setCopied(true);
    } catch {
      notify.error('Could not copy the code', 'Select the code and copy it by hand.');
    }
  };

  return (
    <PanelDialog
      open={scenario !== null}
      onClose={onClose}
      title="Playwright test"
      subtitle={
        <Text fontSize="sm" color="fg.muted" wordBreak="break-word">
          {name} · run it with <code>npx playwright test {fileName}</code>
        </Text>
      }
      footer={
        <HStack gap="2" wrap="wrap" justify="flex-end">
          <Button variant="outline" onClick={() => void copy()}>
            {copied ? <Check aria-hidden /> : <Copy aria-hidden />} {copied ? 'Copied' : 'Copy'}
          </Button>
          <Button colorPalette="brand" onClick={() => saveBlob(new Blob([code], { type: 'text/typescript' }), fileName)}>
            <Download aria-hidden /> Download
          </Button>
        </HStack>
      }
    >
      <Box
        as="pre"
        data-testid="scenario-code"
        aria-label="Scenario code"
        tabIndex={0}
        fontFamily="mono"
        fontSize="xs"
        lineHeight="tall"
        bg="bg.muted"
        borderRadius="l2"
        p="4"
        overflowX="auto"
        whiteSpace="pre"
      >
        {code}
      </Box>
    </PanelDialog>
  );
}
