import { Badge, Box, Button, Card, Grid, HStack, Heading, List, Stack, Text } from '@chakra-ui/react';
import { ArrowLeft, Check } from 'lucide-react';
import { PLAN_FILTERS, emptyFilterText, filterCards, planButtonLabel, type PlanCard, type PlanFilter } from '../billing-view';
import { texts } from '../texts';

interface PlansViewProps {
  cards: readonly PlanCard[] | null;
  filter: PlanFilter;
  onFilter: (filter: PlanFilter) => void;
  /** A request runs: every plan button says 'Processing...' and waits. */
  busy: boolean;
  onChoose: (card: PlanCard) => void;
  onBack: (() => void) | null;
}

/** The plans sub-view: the filters All Plans / Upgrades / Downgrades and the grid of plan cards (2 md, 3 xl). */
export function PlansView({ cards, filter, onFilter, busy, onChoose, onBack }: PlansViewProps) {
  const shown = cards ? filterCards(cards, filter) : [];
  return (
    <Stack gap="4" data-testid="billing-plans">
      <HStack justify="space-between" wrap="wrap" gap="3">
        <Heading as="h2" size="md">
          {texts.plansTitle}
        </Heading>
        {onBack && (
          <Button variant="ghost" size="sm" onClick={onBack}>
            <ArrowLeft aria-hidden /> {texts.backToSubscription}
          </Button>
        )}
      </HStack>
      <HStack role="group" aria-label={texts.filtersLabel} gap="2" wrap="wrap">
        {PLAN_FILTERS.map((value) => (
          <Button key={value} size="sm" variant={filter === value ? 'solid' : 'outline'} colorPalette="brand" aria-pressed={filter === value} onClick={() => onFilter(value)}>
            {texts.filters[value]}
          </Button>
        ))}
      </HStack>
      {!cards ? (
        <Text color="fg.muted" aria-live="polite">
          {texts.loadingPlans}
        </Text>
      ) : shown.length === 0 ? (
        <Card.Root variant="subtle">
          <Card.Body>
            <Text textAlign="center" data-testid="billing-plans-empty">
              {emptyFilterText(filter)}
            </Text>
          </Card.Body>
        </Card.Root>
      ) : (
        <Grid as="ul" listStyleType="none" templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' }} gap="5">
          {shown.map((card) => (
            <Box as="li" key={card.priceId} display="flex">
              <PlanCardView card={card} busy={busy} onChoose={onChoose} />
            </Box>
          ))}
        </Grid>
      )}
    </Stack>
  );
}

function PlanCardView({ card, busy, onChoose }: { card: PlanCard; busy: boolean; onChoose: (card: PlanCard) => void }) {
  const current = card.action === 'current';
  const headingId = `plan-${card.id}-name`;
  return (
    <Card.Root
      variant="outline"
      flex="1"
      borderColor={current ? 'brand.solid' : card.popular ? 'brand.muted' : undefined}
      borderWidth={current ? '2px' : '1px'}
      aria-labelledby={headingId}
      role="group"
      data-testid={`plan-card-${card.id}`}
    >
      <Card.Body gap="4">
        {/* The badge row keeps the cards of a grid row aligned; alone in a column, an empty one is left out. */}
        <HStack gap="2" minH="6" wrap="wrap" display={card.popular || current ? 'flex' : { base: 'none', md: 'flex' }}>
          {card.popular && (
            <Badge colorPalette="brand" variant="solid">
              {texts.mostPopular}
            </Badge>
          )}
          {current && (
            <Badge colorPalette="status.active" variant="solid">
              {texts.currentPlan}
            </Badge>
          )}
        </HStack>
        <Stack gap="1">
          <Heading as="h3" size="lg" id={headingId}>
            {card.name}
          </Heading>
          <HStack gap="1" align="baseline">
            <Text fontSize="3xl" fontWeight="bold" data-testid="plan-price">
              {card.price}
            </Text>
            <Text color="fg.muted">{card.period}</Text>
          </HStack>
          <Text color="fg.muted">{card.description}</Text>
        </Stack>
        <List.Root gap="2" variant="plain" flex="1">
          {card.features.map((feature) => (
            <List.Item key={feature} alignItems="center">
              <List.Indicator asChild color="fg.success">
                <Check aria-hidden />
              </List.Indicator>
              {feature}
            </List.Item>
          ))}
        </List.Root>
        <Button
          colorPalette="brand"
          variant={card.action === 'upgrade' ? 'solid' : 'outline'}
          disabled={current || busy}
          onClick={() => onChoose(card)}
          aria-label={busy || current ? undefined : `${planButtonLabel(card.action, false)}: ${card.name}`}
        >
          {planButtonLabel(card.action, busy)}
        </Button>
      </Card.Body>
    </Card.Root>
  );
}
