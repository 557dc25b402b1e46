import { Stack } from '@chakra-ui/react';
import { AddDomainForm } from './components/add-domain-form';
import { DomainList } from './components/domain-list';

/** The workspace's domains on the Members page: add one, prove it, verify it, remove it. */
export function DomainsSection() {
  return (
    <Stack gap="3" as="section" aria-label="Domains">
      <AddDomainForm />
      <DomainList />
    </Stack>
  );
}
