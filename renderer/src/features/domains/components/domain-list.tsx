import { Badge, Box, Button, Card, EmptyState, Flex, HStack, Skeleton, Stack, Text, VStack } from '@chakra-ui/react';
import type { Domain } from '@common/domains';
import { Globe, ShieldCheck, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { CodeBlock } from '../../../ui/code-block';
import { ConfirmDeleteDialog } from '../../../ui/confirm-delete-dialog';
import { LoadErrorCard } from '../../../ui/load-error-card';
import { LoadMore } from '../../../ui/load-more';
import { formatRelativeDate } from '../../../ui/relative-date';
import { useDomains } from '../hooks/use-domains';
import { useRemoveDomain } from '../hooks/use-remove-domain';
import { useVerifyDomain } from '../hooks/use-verify-domain';
import { texts } from '../texts';

const STATE_PALETTE = { pending: 'gray', verified: 'green', failed: 'orange' } as const;

/** The workspace's domains: state, both ways to prove each (with copy buttons), Verify and Remove. */
export function DomainList() {
  const list = useDomains();
  const remove = useRemoveDomain();
  const [removing, setRemoving] = useState<Domain | null>(null);
  if (list.isError && !list.data) {
    return <LoadErrorCard problem={texts.loadFailed} reason={list.error.message} actionLabel={texts.retry} onAction={() => void list.refetch()} />;
  }
  return (
    <Stack gap="3">
      <Card.Root variant="outline" overflow="hidden">
        {list.isLoading ? (
          <Stack gap="3" p="4" aria-busy="true" aria-label="Loading domains">
            <Skeleton h="5" />
            <Skeleton h="16" />
          </Stack>
        ) : list.domains.length === 0 ? (
          <EmptyState.Root>
            <EmptyState.Content>
              <EmptyState.Indicator>
                <Globe />
              </EmptyState.Indicator>
              <VStack textAlign="center">
                <EmptyState.Title>{texts.empty}</EmptyState.Title>
                <EmptyState.Description>{texts.emptyHint}</EmptyState.Description>
              </VStack>
            </EmptyState.Content>
          </EmptyState.Root>
        ) : (
          <Stack as="ul" gap="0" listStyleType="none">
            {list.domains.map((domain) => (
              <DomainRow key={domain.id} domain={domain} onRemove={() => setRemoving(domain)} />
            ))}
          </Stack>
        )}
      </Card.Root>
      <LoadMore query={list} label={texts.loadMore} testId="load-more-domains" />
      <ConfirmDeleteDialog
        title={texts.removeTitle}
        question={texts.removeQuestion}
        name={removing?.domain ?? ''}
        open={removing !== null}
        onOpenChange={(open) => !open && setRemoving(null)}
        deleting={remove.isPending}
        confirmLabel={texts.remove}
        busyLabel="Removing..."
        onConfirm={() => removing && remove.mutate(removing.id, { onSettled: () => setRemoving(null) })}
      />
    </Stack>
  );
}

function DomainRow({ domain, onRemove }: { domain: Domain; onRemove: () => void }) {
  const verify = useVerifyDomain();
  const checking = verify.isPending && verify.variables === domain.id;
  return (
    <Box as="li" borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }} px="4" py="3" data-testid="domain-row">
      <Stack gap="3">
        <Flex gap="3" align={{ base: 'stretch', md: 'center' }} direction={{ base: 'column', md: 'row' }}>
          <HStack gap="2" flex="1" minW="0" wrap="wrap">
            <Text fontFamily="mono" fontSize="sm" fontWeight="medium" wordBreak="break-all">
              {domain.domain}
            </Text>
            <Badge colorPalette={STATE_PALETTE[domain.state]} data-testid="domain-state">
              {texts.stateLabels[domain.state]}
            </Badge>
          </HStack>
          <HStack gap="2">
            <Button size="sm" colorPalette="brand" onClick={() => verify.mutate(domain.id)} loading={checking} loadingText={texts.verify} flex={{ base: '1', md: 'initial' }}>
              <ShieldCheck aria-hidden /> {texts.verify}
            </Button>
            <Button size="sm" variant="outline" colorPalette="red" onClick={onRemove} aria-label={`Remove domain ${domain.domain}`} flex={{ base: '1', md: 'initial' }}>
              <Trash2 aria-hidden /> {texts.remove}
            </Button>
          </HStack>
        </Flex>
        {domain.last_error && (
          <Text fontSize="sm" color="fg.error" data-testid="domain-error-reason">
            {domain.last_error}
          </Text>
        )}
        {domain.checked_at && (
          <Text fontSize="xs" color="fg.muted">
            {texts.lastCheck} {formatRelativeDate(domain.checked_at)}
          </Text>
        )}
        {domain.state !== 'verified' && <Proofs domain={domain} />}
      </Stack>
    </Box>
  );
}

/** The two ways to prove the domain: the token file's URL and content, or the TXT record. */
function Proofs({ domain }: { domain: Domain }) {
  return (
    <Stack gap="2" fontSize="sm">
      <Text>{texts.httpWay}</Text>
      <CodeBlock code={domain.http_url} copyLabel={`Copy the URL for ${domain.domain}`} testId="domain-http-url" />
      <CodeBlock code={domain.token} label={texts.token} copyLabel={`Copy the token for ${domain.domain}`} testId="domain-token" />
      <Text>{texts.dnsWay}</Text>
      <CodeBlock code={domain.txt_record} copyLabel={`Copy the TXT record for ${domain.domain}`} testId="domain-txt" />
    </Stack>
  );
}
