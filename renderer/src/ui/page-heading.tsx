import { Heading, Stack, Text } from '@chakra-ui/react';
import { useDocumentTitle } from './use-document-title';

/** A page's h1 that also sets the document title. */
export function PageHeading({ title, subtitle }: { title: string; subtitle?: string }) {
  useDocumentTitle(title);
  return (
    <Stack gap="1" mb="6">
      <Heading as="h1" size="2xl" letterSpacing="tight">
        {title}
      </Heading>
      {subtitle && <Text color="fg.muted">{subtitle}</Text>}
    </Stack>
  );
}
