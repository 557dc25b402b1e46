import { Alert, List, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { LoadMore, type PagedQuery } from '../../../ui/load-more';

interface PagedListProps<T> {
  query: PagedQuery & { isPending: boolean; isError: boolean };
  items: T[];
  /** Skeleton rows while the first page loads, and their height. */
  skeletons: { rows: number; h: string };
  texts: { failed: string; empty: string; label: string };
  loadMoreTestId: string;
  children: (item: T) => ReactNode;
}

/** A paged list of the project's history: skeletons, then its rows with 'Load more', or why there are none. */
export function PagedList<T>({ query, items, skeletons, texts, loadMoreTestId, children }: PagedListProps<T>) {
  if (query.isPending) {
    return (
      <Stack gap="3" aria-busy="true">
        {Array.from({ length: skeletons.rows }, (_, index) => (
          <Skeleton key={index} h={skeletons.h} />
        ))}
      </Stack>
    );
  }
  if (query.isError) {
    return (
      <Alert.Root status="error">
        <Alert.Indicator />
        <Alert.Title>{texts.failed}</Alert.Title>
      </Alert.Root>
    );
  }
  if (items.length === 0) return <Text color="fg.muted">{texts.empty}</Text>;
  return (
    <Stack gap="3">
      <List.Root variant="plain" gap="0" aria-label={texts.label}>
        {items.map(children)}
      </List.Root>
      <LoadMore query={query} testId={loadMoreTestId} />
    </Stack>
  );
}
