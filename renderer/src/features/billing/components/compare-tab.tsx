import { Badge, Box, List, Stack, Table, Text } from '@chakra-ui/react';
import type { Plan, Tier } from '@common/billing';
import { PLAN_MAPPING_TEXT } from '@common/plans';
import { useId } from 'react';
import { compareColumns, type CompareColumn } from '../billing-view';
import { texts } from '../texts';

type LimitRow = { label: string; value: (column: CompareColumn) => string };

const ROWS: LimitRow[] = [
  { label: texts.comparePrice, value: (column) => column.price },
  { label: texts.compareProjects, value: (column) => column.projects },
  { label: texts.compareSeats, value: (column) => column.seats },
  { label: texts.compareScenarios, value: (column) => column.scenarios },
  { label: texts.compareApi, value: (column) => column.api },
  { label: texts.compareFormats, value: (column) => column.formats },
  { label: texts.compareMonitoring, value: (column) => column.monitoring },
];

/** Compare Plans: the three tiers side by side, with prices, limits (common/plan-limits.ts) and tier features. */
export function CompareTab({ plans, currentTier }: { plans: readonly Plan[]; currentTier: Tier | null }) {
  const columns = compareColumns(plans);
  const captionId = useId();
  return (
    <Stack gap="3">
      <Table.ScrollArea
        borderWidth="1px"
        borderRadius="lg"
        bg="bg"
        // Focusable and named, so keyboard users can scroll the table sideways on a narrow screen.
        tabIndex={0}
        role="region"
        aria-labelledby={captionId}
        _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' }}
        data-testid="billing-compare"
      >
        <Table.Root
          size="sm"
          minW="40rem"
          css={{
            tableLayout: 'fixed',
            // The row names stay in view while the tiers scroll under them on a narrow screen.
            '& tr > :first-child': { position: 'sticky', left: 0, zIndex: 1, bg: 'bg', boxShadow: 'inset -1px 0 0 var(--chakra-colors-border)' },
            '& thead tr > :first-child': { bg: 'bg.muted' },
          }}
        >
          <Table.Caption captionSide="top" textAlign="start" color="fg.muted" m="0" p="0">
            {/* The caption is as wide as the table; its text sticks to the visible part. */}
            <Box id={captionId} position="sticky" left="0" display="inline-block" px="3" py="2.5">
              {texts.compareCaption}
            </Box>
          </Table.Caption>
          <Table.Header>
            <Table.Row bg="bg.muted">
              <Table.ColumnHeader w={{ base: '8.5rem', md: '11rem' }} scope="col">
                {texts.compareFeature}
              </Table.ColumnHeader>
              {columns.map((column) => (
                <Table.ColumnHeader key={column.tier} scope="col">
                  <Stack gap="1" align="start">
                    <Text fontWeight="semibold" fontSize="md">
                      {column.name}
                    </Text>
                    {column.tier === 'pro' && <Badge colorPalette="brand">{texts.mostPopular}</Badge>}
                    {column.tier === currentTier && <Badge colorPalette="status.active">{texts.currentPlan}</Badge>}
                  </Stack>
                </Table.ColumnHeader>
              ))}
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {ROWS.map((row) => (
              <Table.Row key={row.label}>
                <Table.ColumnHeader scope="row" fontWeight="medium" whiteSpace="normal">
                  {row.label}
                </Table.ColumnHeader>
                {columns.map((column) => (
                  <Table.Cell key={column.tier} whiteSpace="normal">
                    {row.value(column)}
                  </Table.Cell>
                ))}
              </Table.Row>
            ))}
            <Table.Row>
              <Table.ColumnHeader scope="row" fontWeight="medium" verticalAlign="top">
                {texts.compareFeatures}
              </Table.ColumnHeader>
              {columns.map((column) => (
                <Table.Cell key={column.tier} verticalAlign="top" whiteSpace="normal">
                  <List.Root gap="1" ps="4">
                    {column.features.map((feature) => (
                      <List.Item key={feature}>{feature}</List.Item>
                    ))}
                  </List.Root>
                </Table.Cell>
              ))}
            </Table.Row>
          </Table.Body>
        </Table.Root>
      </Table.ScrollArea>
      <Text fontSize="sm" color="fg.muted" data-testid="plan-mapping">
        {PLAN_MAPPING_TEXT}
      </Text>
    </Stack>
  );
}
