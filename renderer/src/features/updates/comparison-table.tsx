import { Badge, Box, Button, EmptyState, Flex, HStack, Input, InputGroup, Table, Tabs, Text, VStack } from '@chakra-ui/react';
import { ArrowDown, ArrowUp, ArrowUpDown, Check, Minus, Search, SearchX, X } from 'lucide-react';
import { Fragment, useId, useMemo, useState } from 'react';
import {
  CATEGORIES,
  FEATURES,
  SUPPORT_LABELS,
  TOOLS,
  filterFeatures,
  nextSort,
  sortFeatures,
  type CategoryFilter,
  type Feature,
  type SortDirection,
  type Support,
} from './comparison-data';

const isCategory = (value: string): value is CategoryFilter => CATEGORIES.some((category) => category.id === value);

const CATEGORY_LABELS = Object.fromEntries(CATEGORIES.map((category) => [category.id, category.label])) as Record<CategoryFilter, string>;

/** The feature table with its search box, category tabs and the sortable Feature column. */
export function ComparisonTable() {
  const [category, setCategory] = useState<CategoryFilter>('all');
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortDirection>('none');
  const rows = useMemo(() => sortFeatures(filterFeatures(FEATURES, category, query), sort), [category, query, sort]);
  const total = category === 'all' ? FEATURES.length : filterFeatures(FEATURES, category, '').length;

  return (
    <Tabs.Root value={category} onValueChange={(details) => isCategory(details.value) && setCategory(details.value)} variant="enclosed" colorPalette="brand" size="sm">
      <Flex direction={{ base: 'column', md: 'row' }} gap="3" justify="space-between" align={{ base: 'stretch', md: 'center' }}>
        <Tabs.List aria-label="Feature category" alignSelf={{ base: 'start', md: 'auto' }} maxW="full" overflowX="auto">
          {CATEGORIES.map((item) => (
            <Tabs.Trigger key={item.id} value={item.id} flexShrink="0">
              {item.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <InputGroup w={{ base: 'full', md: '20rem' }} startElement={<Search size={16} aria-hidden />}>
          <Input type="search" aria-label="Search features" placeholder="Search features" value={query} onChange={(event) => setQuery(event.target.value)} />
        </InputGroup>
      </Flex>
      {CATEGORIES.map((item) => (
        <Tabs.Content key={item.id} value={item.id} pt="4">
          {/* One table, in the selected category's panel; the other panels stay empty. */}
          {item.id === category &&
            (rows.length > 0 ? (
              <>
                <Text hideFrom="lg" fontSize="xs" color="fg.muted" mb="2">
                  Scroll sideways to see all {TOOLS.length} tools; the Feature column stays in place.
                </Text>
                <FeatureTable rows={rows} sort={sort} onSort={() => setSort(nextSort)} />
              </>
            ) : (
              <NoMatch query={query} onClear={() => setQuery('')} />
            ))}
        </Tabs.Content>
      ))}
      <Text fontSize="sm" color="fg.muted" mt="2" aria-live="polite">
        {rows.length === total ? `${total} ${category === 'all' ? '' : `${CATEGORY_LABELS[category].toLowerCase()} `}features` : `${rows.length} of ${total} features`}
      </Text>
    </Tabs.Root>
  );
}

function FeatureTable({ rows, sort, onSort }: { rows: Feature[]; sort: SortDirection; onSort: () => void }) {
  const captionId = useId();
  const SortIcon = sort === 'ascending' ? ArrowUp : sort === 'descending' ? ArrowDown : ArrowUpDown;
  return (
    <Table.ScrollArea
      borderWidth="1px"
      borderRadius="lg"
      // Focusable and named, so keyboard users can scroll the table sideways.
      tabIndex={0}
      role="region"
      aria-labelledby={captionId}
      data-testid="comparison-scroll"
      _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' }}
    >
      <Table.Root
        size="sm"
        css={{
          // The Feature column stays in view while the tools scroll under it.
          '& tr > :first-child': {
            position: 'sticky',
            left: 0,
            zIndex: 1,
            bg: 'bg',
            boxShadow: 'inset -1px 0 0 var(--chakra-colors-border)',
          },
          '& thead tr > :first-child': { bg: 'bg.muted' },
        }}
      >
        <Table.Caption captionSide="top" textAlign="start" fontSize="sm" fontWeight="normal" color="fg.muted" m="0" p="0">
          {/* The caption is as wide as the table; its text sticks to the visible part. */}
          <Box id={captionId} position="sticky" left="0" display="inline-block" whiteSpace="normal" maxW="min(calc(100vw - 3rem), 60ch)" px="3" py="2.5">
            Feature comparison of vibeeval and ten other website security tools
          </Box>
        </Table.Caption>
        <Table.Header>
          <Table.Row bg="bg.muted">
            <Table.ColumnHeader aria-sort={sort} w={{ base: '9.5rem', md: '13rem' }} minW={{ base: '9.5rem', md: '13rem' }} py="2" px="2">
              <Button variant="ghost" size="xs" fontWeight="semibold" onClick={onSort} px="2" color="fg">
                Feature
                <SortIcon size={14} aria-hidden />
              </Button>
            </Table.ColumnHeader>
            {TOOLS.map((tool) => (
              <Table.ColumnHeader
                key={tool.id}
                w="5.75rem"
                minW="5.75rem"
                px="1.5"
                textAlign="center"
                whiteSpace="normal"
                overflowWrap="normal"
                wordBreak="normal"
                fontSize="xs"
                lineHeight="1.3"
                fontWeight="semibold"
                color={tool.id === 'vibeeval' ? 'brand.fg' : 'fg'}
                bg={tool.id === 'vibeeval' ? 'brand.subtle' : undefined}
                data-testid="tool-column"
              >
                {withBreaks(tool.name)}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((feature) => (
            <Table.Row key={feature.name} data-testid="feature-row">
              <Table.Cell asChild py="2.5" whiteSpace="normal">
                <th scope="row">
                  <Text fontWeight="medium" lineHeight="1.35" textAlign="start">
                    {feature.name}
                  </Text>
                  <Text fontSize="xs" color="fg.muted" fontWeight="normal" textAlign="start">
                    {CATEGORY_LABELS[feature.category]}
                  </Text>
                </th>
              </Table.Cell>
              {TOOLS.map((tool) => (
                <Table.Cell key={tool.id} textAlign="center" px="1.5" bg={tool.id === 'vibeeval' ? 'brand.subtle/50' : undefined}>
                  <SupportBadge value={feature.support[tool.id]} />
                </Table.Cell>
              ))}
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** Long one-word names (VibeAppScanner) may wrap between their capitalised parts, never mid-part. */
function withBreaks(name: string) {
  if (name.includes(' ') || name.length < 11) return name;
  return name.split(/(?=[A-Z])/).map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <wbr />}
      {part}
    </Fragment>
  ));
}

const SUPPORT_STYLE: Record<Support, { palette: string; icon: typeof Check }> = {
  yes: { palette: 'green', icon: Check },
  partial: { palette: 'orange', icon: Minus },
  no: { palette: 'gray', icon: X },
};

/** Yes / Partial / No as text with an icon: never colour alone. */
export function SupportBadge({ value }: { value: Support }) {
  const { palette, icon: IconComponent } = SUPPORT_STYLE[value];
  return (
    <Badge colorPalette={palette} variant="subtle" size="sm" gap="1" data-support={value}>
      <IconComponent size={12} aria-hidden />
      {SUPPORT_LABELS[value]}
    </Badge>
  );
}

function NoMatch({ query, onClear }: { query: string; onClear: () => void }) {
  return (
    <EmptyState.Root borderWidth="1px" borderRadius="lg" size="sm">
      <EmptyState.Content>
        <EmptyState.Indicator>
          <SearchX />
        </EmptyState.Indicator>
        <VStack textAlign="center">
          <EmptyState.Title>No features match</EmptyState.Title>
          <EmptyState.Description>No feature in this category contains “{query.trim()}”.</EmptyState.Description>
        </VStack>
        <Button variant="outline" size="sm" onClick={onClear}>
          <X aria-hidden /> Clear search
        </Button>
      </EmptyState.Content>
    </EmptyState.Root>
  );
}

/** The legend above the table. */
export function SupportLegend() {
  return (
    <HStack as="ul" gap={{ base: '2', md: '5' }} wrap="wrap" listStyleType="none" m="0" p="0" fontSize="sm" color="fg.muted">
      <HStack as="li" gap="2">
        <SupportBadge value="yes" /> documented and built in
      </HStack>
      <HStack as="li" gap="2">
        <SupportBadge value="partial" /> limited, an add-on, or described only in general terms
      </HStack>
      <HStack as="li" gap="2">
        <SupportBadge value="no" /> not offered, or not publicly documented
      </HStack>
    </HStack>
  );
}
