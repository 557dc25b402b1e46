import { Button, HStack, Text } from '@chakra-ui/react';
import { PanelDialog } from '../../../ui/panel-dialog';
import { texts } from '../texts';

/** Asked once per project in the desktop app, before its first test: the terms require permission to test the site. */
export function PermissionDialog({ url, open, confirming, onConfirm, onClose }: { url: string; open: boolean; confirming: boolean; onConfirm: () => void; onClose: () => void }) {
  return (
    <PanelDialog
      open={open}
      onClose={onClose}
      size="lg"
      title={texts.permissionTitle}
      description={texts.permissionBody}
      footer={
        <HStack gap="2" justify="flex-end" w="full" wrap="wrap">
          <Button variant="outline" onClick={onClose} disabled={confirming}>
            {texts.permissionCancel}
          </Button>
          <Button colorPalette="brand" onClick={onConfirm} loading={confirming} loadingText={texts.permissionConfirm}>
            {texts.permissionConfirm}
          </Button>
        </HStack>
      }
    >
      <Text fontFamily="mono" fontSize="sm" wordBreak="break-all" data-testid="permission-url">
        {url}
      </Text>
    </PanelDialog>
  );
}
