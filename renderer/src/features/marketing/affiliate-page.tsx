import { Badge, Box, Button, Card, Container, Flex, Heading, Icon, Link, List, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { AFFILIATE, CONTACT, MARKETING_PLANS, mailto, type MarketingPlan } from '@common/marketing';
import {
  BadgePercent,
  BarChart3,
  Briefcase,
  CalendarClock,
  CircleCheck,
  Cookie,
  FileText,
  GraduationCap,
  Image as ImageIcon,
  Link2,
  Mail,
  Megaphone,
  Rocket,
  Users,
  Wallet,
  Video,
  type LucideIcon,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PageHeading } from '../../ui/page-heading';
import { CtaBand, Eyebrow } from './company/cta-band';
import { ordinal, planById, planPrice, usd } from '../../ui/format';

const APPLY_HREF = mailto(CONTACT.affiliates, 'Affiliate program application');

const basic = planById(MARKETING_PLANS, 'basic');
const pro = planById(MARKETING_PLANS, 'pro');
const lifetime = planById(MARKETING_PLANS, 'lifetime');

const recurring = `${AFFILIATE.recurringRatePercent}% recurring`;
const recurringWindow = `for the first ${AFFILIATE.recurringMonths} months`;
const cookie = `${AFFILIATE.cookieDays}-day cookie`;
const payoutDay = `by the ${ordinal(AFFILIATE.payoutDayOfMonth)} of each month`;
/** What one subscriber who pays for the whole commission window earns the affiliate. */
const yearOf = (monthly: number) => usd(Math.round(monthly * AFFILIATE.recurringMonths * 100) / 100);

function Section({ id, eyebrow, title, intro, children }: { id: string; eyebrow: string; title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <Box as="section" aria-labelledby={id} mt={{ base: '14', md: '20' }}>
      <Stack gap="2" mb="8" maxW="3xl">
        <Eyebrow>{eyebrow}</Eyebrow>
        <Heading as="h2" id={id} size={{ base: 'xl', md: '2xl' }} letterSpacing="tight">
          {title}
        </Heading>
        {intro && (
          <Text color="fg.muted" fontSize={{ base: 'md', md: 'lg' }} lineHeight="1.7">
            {intro}
          </Text>
        )}
      </Stack>
      {children}
    </Box>
  );
}

function IconTile({ icon }: { icon: LucideIcon }) {
  const Glyph = icon;
  return (
    <Flex boxSize="10" align="center" justify="center" borderRadius="lg" bg="brand.subtle" color="brand.fg" flexShrink="0" aria-hidden="true">
      <Icon boxSize="5">
        <Glyph />
      </Icon>
    </Flex>
  );
}

function FeatureCard({ icon, title, children }: { icon: LucideIcon; title: string; children: ReactNode }) {
  return (
    <Card.Root variant="outline" h="full">
      <Card.Body gap="3">
        <IconTile icon={icon} />
        <Heading as="h3" size="md">
          {title}
        </Heading>
        <Text color="fg.muted" fontSize="sm" lineHeight="1.7">
          {children}
        </Text>
      </Card.Body>
    </Card.Root>
  );
}

const HIGHLIGHTS: { icon: LucideIcon; value: string; label: string }[] = [
  { icon: BadgePercent, value: recurring, label: `on monthly plans ${recurringWindow}` },
  { icon: Cookie, value: cookie, label: 'a click counts for three months' },
  { icon: Wallet, value: `${usd(AFFILIATE.minimumPayout)} minimum`, label: 'payout threshold' },
  { icon: CalendarClock, value: `The ${ordinal(AFFILIATE.payoutDayOfMonth)}`, label: 'payday, every month' },
];

const AUDIENCE: { icon: LucideIcon; title: string; text: string }[] = [
  {
    icon: Video,
    title: 'Creators who teach vibe coding',
    text: 'YouTube, TikTok and stream channels that build apps with Lovable, Bolt, v0, Cursor or Replit. A live scan of a freshly generated app makes a memorable segment.',
  },
  {
    icon: Megaphone,
    title: 'Newsletter and blog writers',
    text: 'Writers covering AI tools, indie hacking or web security, whose readers ship real apps and need a simple answer to "is this safe to launch?".',
  },
  {
    icon: Briefcase,
    title: 'Agencies and freelancers',
    text: 'Studios that deliver AI-built apps to clients. Recommend vibeeval for the hand-over check, and earn on every client who subscribes.',
  },
  {
    icon: GraduationCap,
    title: 'Course and bootcamp authors',
    text: 'Teach students to check their own apps for exposed keys and open databases, with a tool they can keep using after the course.',
  },
  {
    icon: Users,
    title: 'Community organisers',
    text: 'Discord servers, meetups and forums where builders share projects. Point members at a scanner before they post their URL publicly.',
  },
  {
    icon: Rocket,
    title: 'Developer tool reviewers',
    text: 'Sites that compare security scanners such as OWASP ZAP, Nuclei and HTTP Observatory and want a focused option for AI-built apps.',
  },
];

function CommissionCard({ plan, rate, amount, per, note }: { plan: MarketingPlan; rate: string; amount: string; per: string; note: string }) {
  return (
    <Card.Root variant="outline" h="full" borderColor={plan.highlighted ? 'brand.solid' : undefined} borderWidth={plan.highlighted ? '2px' : '1px'}>
      <Card.Header gap="1">
        <Flex justify="space-between" align="center" gap="2" wrap="wrap">
          <Heading as="h3" size="md">
            {plan.name}
          </Heading>
          <Badge colorPalette="brand" variant="subtle">
            {rate}
          </Badge>
        </Flex>
        <Text color="fg.muted" fontSize="sm">
          {planPrice(plan)}
          {plan.trialDays ? ` · ${plan.trialDays}-day free trial` : ''}
          {plan.moneyBackDays ? ` · ${plan.moneyBackDays}-day money-back` : ''}
        </Text>
      </Card.Header>
      <Card.Body gap="1" pt="4">
        <Text fontSize="4xl" fontWeight="bold" letterSpacing="tight" lineHeight="1" color="brand.fg" data-testid={`commission-${plan.id}`}>
          {amount}
        </Text>
        <Text color="fg.muted" fontSize="sm">
          {per}
        </Text>
      </Card.Body>
      <Card.Footer>
        <Text fontSize="sm" color="fg.muted" borderTopWidth="1px" pt="3" w="full">
          {note}
        </Text>
      </Card.Footer>
    </Card.Root>
  );
}

const TOOLS: { icon: LucideIcon; title: string; text: ReactNode }[] = [
  {
    icon: Link2,
    title: 'Personal referral links',
    text: `A tracked link to any page of the site, including the free quick scan. Every visit sets a ${cookie}, so sign-ups weeks later still count.`,
  },
  {
    icon: ImageIcon,
    title: 'Banners and logos',
    text: (
      <>
        Ready-made banners in common sizes, plus the logo files and colours in our{' '}
        <Link asChild color="brand.fg" textDecoration="underline">
          <RouterLink to="/press">press kit</RouterLink>
        </Link>
        .
      </>
    ),
  },
  {
    icon: BarChart3,
    title: 'Affiliate dashboard',
    text: 'Clicks, trials started, paying customers, earnings by month and your payout history, updated daily.',
  },
  {
    icon: FileText,
    title: 'Demo reports and talking points',
    text: 'Sample security reports of example apps, and plain explanations of Supabase RLS, leaked keys and exposed .env files you can reuse.',
  },
];

const TERMS = [
  `Commissions on ${basic.name} and ${pro.name} start when a referred customer pays after their ${basic.trialDays}-day trial, and are paid on each paid month ${recurringWindow}.`,
  `${lifetime.name} commissions are confirmed once its ${lifetime.moneyBackDays}-day money-back period has passed.`,
  `Attribution is to the last affiliate link clicked within ${AFFILIATE.cookieDays} days before the purchase.`,
  'Refunds and chargebacks reverse the commission they generated. Balances below the minimum roll over to the next month.',
  'No self-referrals, no coupon or cashback sites, and no paid search ads on "vibeeval" or misspellings of it.',
  'Disclose the affiliate relationship wherever you share a link, as the FTC and similar rules require, and never send unsolicited email.',
  'Describe vibeeval honestly: no scanner finds every issue, so do not promise that it makes a site secure.',
  'We may change the program with 30 days\u2019 notice; commissions already earned are paid under the rules in force when they were earned.',
];

/** /affiliate */
export function AffiliatePage() {
  return (
    <Container maxW="6xl" px={{ base: '4', md: '6' }} py={{ base: '10', md: '16' }}>
      <Box maxW="3xl">
        <PageHeading title="Affiliate Program" subtitle="Earn recurring commissions by helping builders ship safer AI-built apps." />
        <Text fontSize={{ base: 'md', md: 'lg' }} color="fg.muted" lineHeight="1.7">
          If your audience builds with Lovable, Bolt, v0, Cursor or Replit, they have a problem the tools don&rsquo;t solve for them: exposed databases, leaked keys and missing
          protections that ship with the first deploy. Recommend vibeeval and earn {recurring} {recurringWindow} of every subscription you refer.
        </Text>
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3" mt="6">
          <Button asChild colorPalette="brand" size="lg">
            <a href={APPLY_HREF}>
              <Mail />
              Apply by email
            </a>
          </Button>
          <Button asChild variant="outline" size="lg">
            <RouterLink to="/#pricing">See the plans you&rsquo;ll promote</RouterLink>
          </Button>
        </Stack>
      </Box>

      <SimpleGrid as="ul" columns={{ base: 1, sm: 2, lg: 4 }} gap="4" mt={{ base: '10', md: '14' }} listStyleType="none" aria-label="Program highlights">
        {HIGHLIGHTS.map((item) => (
          <Flex as="li" key={item.value} gap="4" align="center" p="5" borderWidth="1px" borderRadius="xl" bg="bg.subtle">
            <IconTile icon={item.icon} />
            <Stack gap="0">
              <Text fontWeight="bold" fontSize="lg">
                {item.value}
              </Text>
              <Text color="fg.muted" fontSize="sm">
                {item.label}
              </Text>
            </Stack>
          </Flex>
        ))}
      </SimpleGrid>

      <Section
        id="overview"
        eyebrow="Overview"
        title="How the program works"
        intro={`Share your link. When someone you refer starts a paid plan, you earn a share of what they pay: ${recurring} on monthly plans ${recurringWindow}, and ${AFFILIATE.lifetimeRatePercent}% once on ${lifetime.name}. We track referrals with a ${cookie}, pay out ${payoutDay}, and give you the banners, links and numbers to do it well.`}
      >
        <SimpleGrid as="ol" columns={{ base: 1, md: 3 }} gap="4" listStyleType="none">
          {[
            { step: '1', title: 'Apply by email', text: 'Tell us where you publish and who your audience is. We reply within three business days.' },
            { step: '2', title: 'Share your link', text: 'Use your referral link in videos, posts, courses and client hand-overs.' },
            { step: '3', title: 'Get paid monthly', text: `Earnings are paid ${payoutDay} once your balance reaches ${usd(AFFILIATE.minimumPayout)}.` },
          ].map((item) => (
            <Flex as="li" key={item.step} gap="4" p="5" borderWidth="1px" borderRadius="xl">
              <Flex boxSize="8" borderRadius="full" bg="brand.solid" color="white" fontWeight="bold" align="center" justify="center" flexShrink="0" aria-hidden="true">
                {item.step}
              </Flex>
              <Stack gap="1">
                <Heading as="h3" size="sm">
                  {item.title}
                </Heading>
                <Text color="fg.muted" fontSize="sm">
                  {item.text}
                </Text>
              </Stack>
            </Flex>
          ))}
        </SimpleGrid>
      </Section>

      <Section id="audience" eyebrow="Who should join" title="Built for people builders already trust">
        <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="4">
          {AUDIENCE.map((item) => (
            <FeatureCard key={item.title} icon={item.icon} title={item.title}>
              {item.text}
            </FeatureCard>
          ))}
        </SimpleGrid>
      </Section>

      <Section
        id="commissions"
        eyebrow="Commissions"
        title="What you earn on each plan"
        intro={`Monthly plans pay ${recurring} ${recurringWindow} of the customer's subscription. ${lifetime.name} pays ${AFFILIATE.lifetimeRatePercent}% one-time on the purchase.`}
      >
        <SimpleGrid columns={{ base: 1, md: 3 }} gap="5">
          <CommissionCard
            plan={basic}
            rate={recurring}
            amount={usd(AFFILIATE.basicMonthly)}
            per={`per paying month, ${recurringWindow}`}
            note={`Up to ${yearOf(AFFILIATE.basicMonthly)} per customer.`}
          />
          <CommissionCard
            plan={pro}
            rate={recurring}
            amount={usd(AFFILIATE.proMonthly)}
            per={`per paying month, ${recurringWindow}`}
            note={`Up to ${yearOf(AFFILIATE.proMonthly)} per customer.`}
          />
          <CommissionCard
            plan={lifetime}
            rate={`${AFFILIATE.lifetimeRatePercent}% one-time`}
            amount={usd(AFFILIATE.lifetimeOnce)}
            per="once, on the purchase"
            note={`Paid after the ${lifetime.moneyBackDays}-day money-back period.`}
          />
        </SimpleGrid>

        <SimpleGrid columns={{ base: 1, md: 2 }} gap="5" mt="5">
          <Card.Root variant="subtle" bg="brand.subtle">
            <Card.Body gap="2">
              <Heading as="h3" size="md">
                Volume bonus: +{AFFILIATE.bonusPercent}%
              </Heading>
              <Text color="fg.muted" fontSize="sm" lineHeight="1.7">
                Refer {AFFILIATE.bonusReferralsPerMonth} or more paying customers in a calendar month and every commission you earn that month gets a +{AFFILIATE.bonusPercent}%
                bonus.
              </Text>
            </Card.Body>
          </Card.Root>
          <Card.Root variant="subtle" bg="brand.subtle">
            <Card.Body gap="2">
              <Heading as="h3" size="md">
                Launch bonus: {usd(AFFILIATE.launchBonus)}
              </Heading>
              <Text color="fg.muted" fontSize="sm" lineHeight="1.7">
                The first {AFFILIATE.launchBonusAffiliates} affiliates who refer one paying customer within {AFFILIATE.launchBonusWithinDays} days of joining receive a one-off{' '}
                {usd(AFFILIATE.launchBonus)} bonus on top of their commission.
              </Text>
            </Card.Body>
          </Card.Root>
        </SimpleGrid>

        <Box mt="5" p={{ base: '5', md: '6' }} borderWidth="1px" borderRadius="xl">
          <Heading as="h3" size="md" mb="3">
            Payouts
          </Heading>
          <List.Root gap="2" variant="plain">
            {[
              `Paid ${payoutDay} for the commissions confirmed in the previous month.`,
              `${usd(AFFILIATE.minimumPayout)} minimum payout; smaller balances carry over.`,
              `Payouts by PayPal, or by wire transfer for earnings over ${usd(AFFILIATE.wireTransferOver)}.`,
            ].map((line) => (
              <List.Item key={line} alignItems="flex-start" color="fg.muted">
                <List.Indicator asChild color="brand.fg" mt="1">
                  <Icon boxSize="4" aria-hidden="true">
                    <CircleCheck />
                  </Icon>
                </List.Indicator>
                {line}
              </List.Item>
            ))}
          </List.Root>
        </Box>
      </Section>

      <Section id="tools" eyebrow="Tools" title="Everything you need to promote vibeeval">
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="4">
          {TOOLS.map((tool) => (
            <FeatureCard key={tool.title} icon={tool.icon} title={tool.title}>
              {tool.text}
            </FeatureCard>
          ))}
        </SimpleGrid>
      </Section>

      <Section id="terms" eyebrow="The fine print" title="Program terms">
        <List.Root as="ol" gap="3" maxW="3xl" ps="6" color="fg.muted" lineHeight="1.7">
          {TERMS.map((term) => (
            <List.Item key={term}>{term}</List.Item>
          ))}
        </List.Root>
        <Text color="fg.muted" mt="5" maxW="3xl">
          Affiliates also follow our{' '}
          <Link asChild color="brand.fg" textDecoration="underline">
            <RouterLink to="/terms">Terms of Use</RouterLink>
          </Link>
          , including the rule that only sites you own or may test are scanned.
        </Text>
      </Section>

      <CtaBand
        title="Ready to join?"
        actions={
          <Button asChild size="lg" bg="white" color="brand.700" _hover={{ bg: 'brand.50' }}>
            <a href={APPLY_HREF} data-testid="affiliate-apply">
              <Mail />
              Apply by email
            </a>
          </Button>
        }
      >
        Write to {CONTACT.affiliates} with your name, where you publish, roughly how many people you reach and how you plan to mention vibeeval. We reply within three business days
        with your link and dashboard access.
      </CtaBand>
    </Container>
  );
}
