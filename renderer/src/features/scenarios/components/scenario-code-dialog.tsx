import { Box, Button, HStack, Text } from '@chakra-ui/react';
import type { Scenario } from '@common/scenarios';
import { Download } from 'lucide-react';
import { CopyButton } from '../../../ui/code-block';
import { PanelDialog } from '../../../ui/panel-dialog';
import { specFileName } from '../scenario-format';
import { saveBlob } from '../../../ui/save-blob';

/** View Code: the scenario's Playwright test file, with Copy and Download. */
export function ScenarioCodeDialog({ scenario, name, onClose }: { scenario: Scenario | null; name: string; onClose: () => void }) {
  const code = scenario?.scenario_code ?? '';
  const fileName = specFileName(name);

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
          <CopyButton value={code} size="md" failure="Could not copy the code" />
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
