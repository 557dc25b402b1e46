import { Box, Button, Card, EmptyState, Flex, HStack, Heading, Skeleton, Stack, Text, VStack } from '@chakra-ui/react';
import type { Webhook } from '@common/webhooks';
import { ChevronDown, ChevronRight, Trash2, Webhook as WebhookIcon } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDeleteDialog } from '../../../ui/confirm-delete-dialog';
import { LoadErrorCard } from '../../../ui/load-error-card';
import { LoadMore } from '../../../ui/load-more';
import { formatRelativeDate } from '../../../ui/relative-date';
import { useDeleteWebhook } from '../hooks/use-delete-webhook';
import { useUpdateWebhook } from '../hooks/use-update-webhook';
import { useWebhooks } from '../hooks/use-webhooks';
import { texts } from '../texts';
import { DeliveryList } from './delivery-list';
import { FormatSelect } from './format-select';

/** The workspace's webhooks: url, created, format (changeable), delete with confirmation, each expandable to its recent deliveries. */
export function WebhookList() {
  const list = useWebhooks();
  const remove = useDeleteWebhook();
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  return (
    <Stack gap="3">
      <Heading as="h2" size="md">
        {texts.listTitle}
      </Heading>
      {list.isError && !list.data ? (
        <LoadErrorCard problem={texts.loadFailed} reason={list.error.message} actionLabel={texts.retry} onAction={() => void list.refetch()} />
      ) : (
        <Card.Root variant="outline" overflow="hidden">
          {list.isLoading ? (
            <LoadingRows />
          ) : list.webhooks.length === 0 ? (
            <EmptyState.Root>
              <EmptyState.Content>
                <EmptyState.Indicator>
                  <WebhookIcon />
                </EmptyState.Indicator>
                <VStack textAlign="center">
                  <EmptyState.Title>{texts.listEmpty}</EmptyState.Title>
                  <EmptyState.Description>{texts.listEmptyHint}</EmptyState.Description>
                </VStack>
              </EmptyState.Content>
            </EmptyState.Root>
          ) : (
            <Stack as="ul" gap="0" listStyleType="none">
              {list.webhooks.map((webhook) => (
                <WebhookRow key={webhook.id} webhook={webhook} onDelete={() => setDeleting(webhook)} />
              ))}
            </Stack>
          )}
        </Card.Root>
      )}
      <LoadMore query={list} label={texts.loadMore} testId="load-more-webhooks" />
      <ConfirmDeleteDialog
        title={texts.deleteTitle}
        question={texts.deleteQuestion}
        name={deleting?.url ?? ''}
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        deleting={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id, { onSettled: () => setDeleting(null) })}
      />
    </Stack>
  );
}

function WebhookRow({ webhook, onDelete }: { webhook: Webhook; onDelete: () => void }) {
  const [open, setOpen] = useState(false);
  const update = useUpdateWebhook();
  const panelId = `deliveries-${webhook.id}`;
  return (
    <Box as="li" borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }} data-testid="webhook-row">
      <Flex gap="3" px="4" py="3" align={{ base: 'stretch', md: 'center' }} direction={{ base: 'column', md: 'row' }}>
        <Stack gap="0.5" flex="1" minW="0">
          <Text fontFamily="mono" fontSize="sm" fontWeight="medium" wordBreak="break-all" data-testid="webhook-url">
            {webhook.url}
          </Text>
          <Flex gap="3" align="center" wrap="wrap">
            <Text fontSize="xs" color="fg.muted">
              Created {formatRelativeDate(webhook.created_at)}
            </Text>
            <Box w="44" maxW="full">
              <FormatSelect
                size="xs"
                aria-label={`Format of webhook ${webhook.url}`}
                value={webhook.format}
                disabled={update.isPending}
                onChange={(format) => update.mutate({ id: webhook.id, format })}
              />
            </Box>
          </Flex>
        </Stack>
        <HStack gap="2">
          <Button size="sm" variant="ghost" onClick={() => setOpen((shown) => !shown)} aria-expanded={open} aria-controls={panelId}>
            {open ? <ChevronDown aria-hidden /> : <ChevronRight aria-hidden />} {open ? texts.hideDeliveries : texts.showDeliveries}
          </Button>
          <Button size="sm" variant="outline" colorPalette="red" onClick={onDelete} aria-label={`Delete webhook ${webhook.url}`}>
            <Trash2 aria-hidden /> Delete
          </Button>
        </HStack>
      </Flex>
      {open && (
        <Box id={panelId} px="4" pb="4">
          <DeliveryList webhookId={webhook.id} />
        </Box>
      )}
    </Box>
  );
}

function LoadingRows() {
  return (
    <Stack gap="3" p="4" aria-busy="true" aria-label="Loading webhooks">
      {Array.from({ length: 2 }, (_, index) => (
        <HStack key={index} gap="4">
          <Skeleton h="5" flex="3" />
          <Skeleton h="8" w="32" hideBelow="md" />
          <Skeleton h="8" w="20" />
        </HStack>
      ))}
    </Stack>
  );
}
