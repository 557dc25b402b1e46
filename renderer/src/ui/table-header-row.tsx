import { Grid, type GridProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** The column headers of a list drawn as a table from md up (rows stack with their own labels on a phone). */
export function TableHeaderRow({ columns, children }: { columns: GridProps['templateColumns']; children: ReactNode }) {
  return (
    <Grid
      role="row"
      templateColumns={columns}
      gap="3"
      px="4"
      py="2"
      bg="bg.subtle"
      borderBottomWidth="1px"
      hideBelow="md"
      fontSize="xs"
      fontWeight="semibold"
      color="fg.muted"
      textTransform="uppercase"
    >
      {children}
    </Grid>
  );
}
