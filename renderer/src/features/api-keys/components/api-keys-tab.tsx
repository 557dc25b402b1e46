import { Box, Button, Card, EmptyState, Field, Flex, Grid, HStack, Input, Skeleton, Stack, Text, VStack } from '@chakra-ui/react';
import { API_KEY_NAME_MAX, type ApiKey, type CreatedApiKey } from '@common/api-keys';
import { KeyRound, Plus, Trash2 } from 'lucide-react';
import { useState, type FormEvent, type ReactNode } from 'react';
import { ConfirmDeleteDialog } from '../../../ui/confirm-delete-dialog';
import { LoadErrorCard } from '../../../ui/load-error-card';
import { LoadMore } from '../../../ui/load-more';
import { formatRelativeDate } from '../../../ui/relative-date';
import { notify } from '../../../ui/toaster';
import { checkKeyName, maskedKey } from '../api-format';
import { useApiKeys } from '../hooks/use-api-keys';
import { useCreateApiKey } from '../hooks/use-create-api-key';
import { useRevokeApiKey } from '../hooks/use-revoke-api-key';
import { FormCard } from '../../../ui/form-card';
import { texts } from '../texts';
import { NewKeyDialog } from './new-key-dialog';
import { PlanLimitNotice } from '../../../ui/plan-limit';
import { TableHeaderRow } from '../../../ui/table-header-row';

/** The API Keys tab: the create form, the new key shown once, and the list with revoke. */
export function ApiKeysTab() {
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  return (
    <Stack gap="6">
      <CreateKeyForm onCreated={setCreated} />
      <KeyList />
      <NewKeyDialog created={created} onDone={() => setCreated(null)} />
    </Stack>
  );
}

function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedApiKey) => void }) {
  const create = useCreateApiKey();
  const [name, setName] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkKeyName(name);
    if (!checked.ok) {
      notify.error(checked.title, checked.description);
      return;
    }
    create.mutate(checked.name, {
      onSuccess: (key) => {
        setName('');
        onCreated(key);
      },
    });
  };
  return (
    <FormCard title={texts.createTitle} onSubmit={submit}>
      <Flex gap="3" direction={{ base: 'column', sm: 'row' }} align={{ sm: 'end' }}>
        <Field.Root flex="1">
          <Field.Label>{texts.nameLabel}</Field.Label>
          <Input value={name} onChange={(e) => setName(e.target.value)} placeholder={texts.namePlaceholder} maxLength={API_KEY_NAME_MAX + 20} name="api-key-name" />
        </Field.Root>
        <Button type="submit" colorPalette="brand" loading={create.isPending} loadingText={texts.create}>
          <Plus aria-hidden /> {texts.create}
        </Button>
      </Flex>
      <PlanLimitNotice error={create.error} />
    </FormCard>
  );
}

function KeyList() {
  const list = useApiKeys();
  const revoke = useRevokeApiKey();
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  if (list.isError && !list.data) {
    return <LoadErrorCard problem={texts.keysLoadFailed} reason={list.error.message} actionLabel={texts.retry} onAction={() => void list.refetch()} />;
  }
  return (
    <Stack gap="3">
      <Card.Root variant="outline" overflow="hidden">
        {list.isLoading ? (
          <LoadingRows />
        ) : list.keys.length === 0 ? (
          <EmptyState.Root>
            <EmptyState.Content>
              <EmptyState.Indicator>
                <KeyRound />
              </EmptyState.Indicator>
              <VStack textAlign="center">
                <EmptyState.Title>{texts.keysEmpty}</EmptyState.Title>
                <EmptyState.Description>{texts.keysEmptyHint}</EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : (
          <Box role="table" aria-label={texts.tabs.keys}>
            <HeaderRow />
            {list.keys.map((key) => (
              <KeyRow key={key.id} apiKey={key} onRevoke={() => setRevoking(key)} />
            ))}
          </Box>
        )}
      </Card.Root>
      <LoadMore query={list} label={texts.loadMore} testId="load-more-api-keys" />
      <ConfirmDeleteDialog
        title={texts.revokeTitle}
        question={texts.revokeQuestion}
        name={revoking ? `${revoking.name} (${maskedKey(revoking.last_four)})` : ''}
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        deleting={revoke.isPending}
        confirmLabel={texts.revoke}
        busyLabel="Revoking..."
        onConfirm={() => revoking && revoke.mutate(revoking.id, { onSettled: () => setRevoking(null) })}
      />
    </Stack>
  );
}

const columns = { base: '1fr', md: '2fr 2fr 1.3fr 1.3fr auto' };

function HeaderRow() {
  return (
    <TableHeaderRow columns={columns}>
      <Text role="columnheader">{texts.columns.name}</Text>
      <Text role="columnheader">{texts.columns.key}</Text>
      <Text role="columnheader">{texts.columns.created}</Text>
      <Text role="columnheader">{texts.columns.lastUsed}</Text>
      <Box role="columnheader" w="20">
        <Box srOnly>Actions</Box>
      </Box>
    </TableHeaderRow>
  );
}

/** A key as a table row from md up, stacked with its own labels on a phone. */
function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  return (
    <Grid
      role="row"
      templateColumns={columns}
      gap={{ base: '1', md: '3' }}
      px="4"
      py="3"
      borderBottomWidth="1px"
      _last={{ borderBottomWidth: 0 }}
      alignItems="center"
      data-testid="api-key-row"
    >
      <Text role="cell" fontWeight="medium" wordBreak="break-word">
        {apiKey.name}
      </Text>
      <Cell label={texts.columns.key}>
        <Text as="span" fontFamily="mono" fontSize="sm">
          {maskedKey(apiKey.last_four)}
        </Text>
      </Cell>
      <Cell label={texts.columns.created}>{formatRelativeDate(apiKey.created_at)}</Cell>
      <Cell label={texts.columns.lastUsed} testId="api-key-last-used">
        {apiKey.last_used ? formatRelativeDate(apiKey.last_used) : texts.never}
      </Cell>
      <Box role="cell" mt={{ base: '2', md: 0 }}>
        <Button size="sm" variant="outline" colorPalette="red" onClick={onRevoke} aria-label={`${texts.revoke} ${apiKey.name}`}>
          <Trash2 aria-hidden /> {texts.revoke}
        </Button>
      </Box>
    </Grid>
  );
}

function Cell({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <HStack role="cell" gap="2" fontSize="sm" minW="0">
      <Text as="span" color="fg.muted" hideFrom="md" minW="20">
        {label}
      </Text>
      <Text as="span" data-testid={testId}>
        {children}
      </Text>
    </HStack>
  );
}

function LoadingRows() {
  return (
    <Stack gap="3" p="4" aria-busy="true" aria-label="Loading API keys">
      {Array.from({ length: 3 }, (_, index) => (
        <HStack key={index} gap="4">
          <Skeleton h="5" flex="2" />
          <Skeleton h="4" flex="2" hideBelow="md" />
          <Skeleton h="4" flex="1" />
          <Skeleton h="8" w="20" />
        </HStack>
      ))}
    </Stack>
  );
}
