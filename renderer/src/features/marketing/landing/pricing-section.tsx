import { Badge, Box, Button, Container, Flex, Heading, Icon, Link, List, SimpleGrid, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { CHECKOUT_LINKS, CONTACT, MARKETING_PLANS, mailto, marketingFeatures, type MarketingPlan } from '@common/marketing';
import { PLAN_MAPPING_TEXT } from '@common/plans';
import { Check, X } from 'lucide-react';
import { ExternalLink } from '../../../ui/external-link';
import { CHECK_COUNT } from '../../../ui/check-count';

/** '14-day free trial' or '30-day money-back guarantee', from the plan's own numbers. */
function planTerms(plan: MarketingPlan): string | null {
  if (plan.trialDays) return `${plan.trialDays}-day free trial`;
  if (plan.moneyBackDays) return `${plan.moneyBackDays}-day money-back guarantee`;
  return null;
}

/** The pricing section (#pricing, the top bar's Pricing link): the three plans and a line for teams. */
export function PricingSection() {
  return (
    <Box as="section" id="pricing" aria-labelledby="pricing-title" scrollMarginTop="16" py={{ base: '16', md: '24' }} bg="bg.subtle" borderYWidth="1px">
      <Container maxW="6xl" px={{ base: '4', md: '6' }}>
        <Stack gap="3" textAlign="center" mb={{ base: '10', md: '14' }} maxW="2xl" mx="auto">
          <Text color="brand.fg" fontWeight="semibold" fontSize="sm" textTransform="uppercase" letterSpacing="wider">
            Pricing
          </Text>
          <Heading as="h2" id="pricing-title" size={{ base: '2xl', md: '3xl' }} letterSpacing="tight" textWrap="balance">
            Simple plans, every check included
          </Heading>
          <Text color="fg.muted" fontSize={{ base: 'md', md: 'lg' }}>
            Every plan runs all {CHECK_COUNT} security checks. Pick how many AI agent scenarios and how much automation you need.
          </Text>
        </Stack>

        <SimpleGrid columns={{ base: 1, lg: 3 }} gap={{ base: '6', lg: '5' }} alignItems="stretch" maxW={{ base: 'md', lg: 'none' }} mx="auto">
          {MARKETING_PLANS.map((plan) => (
            <PlanCard key={plan.id} plan={plan} />
          ))}
        </SimpleGrid>

        <Text textAlign="center" mt="10" color="fg.muted" maxW="2xl" mx="auto" data-testid="plan-mapping">
          {PLAN_MAPPING_TEXT}{' '}
          <Link href={mailto(CONTACT.sales, 'vibeeval for teams')} color="brand.fg" fontWeight="medium" textDecoration="underline" textUnderlineOffset="3px">
            Contact {CONTACT.sales}
          </Link>
        </Text>
      </Container>
    </Box>
  );
}

function PlanCard({ plan }: { plan: MarketingPlan }) {
  const terms = planTerms(plan);
  const titleId = `plan-${plan.id}-title`;
  return (
    <Flex
      as="article"
      aria-labelledby={titleId}
      direction="column"
      position="relative"
      bg="bg.panel"
      borderRadius="l3"
      borderWidth={plan.highlighted ? '2px' : '1px'}
      borderColor={plan.highlighted ? 'brand.solid' : 'border'}
      boxShadow={plan.highlighted ? 'lg' : 'sm'}
      p={{ base: '6', md: '8' }}
      data-testid={`plan-${plan.id}`}
    >
      {plan.highlighted && (
        <Badge colorPalette="brand" variant="solid" position="absolute" top="0" left="50%" transform="translate(-50%, -50%)" px="3" py="1" borderRadius="full">
          Most popular
        </Badge>
      )}
      <Heading as="h3" id={titleId} size="lg">
        {plan.name}
      </Heading>
      <Flex align="baseline" gap="1.5" mt="4">
        <Text as="span" fontSize="5xl" fontWeight="bold" letterSpacing="tight" lineHeight="1">
          {`$${plan.price}`}
        </Text>
        <Text as="span" color="fg.muted">
          {plan.period === 'month' ? '/month' : 'one-time'}
        </Text>
      </Flex>
      <Text mt="2" fontSize="sm" fontWeight="medium" color="brand.fg" minH="5">
        {terms}
      </Text>

      <Button asChild colorPalette="brand" variant={plan.highlighted ? 'solid' : 'outline'} size="lg" w="full" mt="6">
        {/* The visible text, then which plan: two plans share 'Start free trial'. */}
        <ExternalLink href={CHECKOUT_LINKS[plan.id]} aria-label={`${plan.cta}: ${plan.name}`} _hover={{ textDecoration: 'none' }}>
          {plan.cta}
        </ExternalLink>
      </Button>

      <List.Root as="ul" listStyleType="none" gap="3" mt="8" fontSize="sm">
        {marketingFeatures(plan).map((feature) => (
          <List.Item
            key={feature.label}
            display="flex"
            alignItems="flex-start"
            gap="2.5"
            color={feature.included ? 'fg' : 'fg.muted'}
            data-included={feature.included}
            data-claim={feature.claim}
          >
            <Icon boxSize="4" mt="0.5" flexShrink="0" color={feature.included ? 'severity.secure.fg' : 'fg.subtle'} aria-hidden="true">
              {feature.included ? <Check /> : <X />}
            </Icon>
            <Text as="span" textDecoration={feature.included ? undefined : 'line-through'}>
              {feature.label}
              {!feature.included && <VisuallyHidden> (not included)</VisuallyHidden>}
            </Text>
          </List.Item>
        ))}
      </List.Root>
    </Flex>
  );
}
