import { Button } from '@chakra-ui/react';

/** The part of a TanStack infinite query the button needs. */
export interface PagedQuery {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

/** 'Load more' under a paged list: shown while the server has another page, busy while it loads. */
export function LoadMore({ query, label = 'Load more', testId }: { query: PagedQuery; label?: string; testId?: string }) {
  if (!query.hasNextPage) return null;
  return (
    <Button variant="outline" size="sm" alignSelf="center" loading={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()} data-testid={testId ?? 'load-more'}>
      {label}
    </Button>
  );
}
