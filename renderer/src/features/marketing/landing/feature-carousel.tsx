import { Badge, Box, Container, Flex, HStack, Heading, Icon, IconButton, Stack, Text, chakra } from '@chakra-ui/react';
import { ChevronLeft, ChevronRight, Database, FileText, KeyRound, MonitorPlay, ShieldCheck } from 'lucide-react';
import { useRef, useState, type KeyboardEvent, type PointerEvent, type ReactNode } from 'react';
import { CHECK_COUNT } from '../../../ui/check-count';

interface Slide {
  title: string;
  text: string;
  icon: ReactNode;
  /** A short excerpt of what the report shows for this kind of finding. */
  evidence: { label: string; lines: string[]; tone: 'critical' | 'high' | 'info'; badge: string };
}

const SLIDES: Slide[] = [
  {
    title: 'Supabase tables readable by anyone',
    text: 'vibeeval finds the anon key in your bundle and asks every table the way an attacker would. Tables without row-level security show up with the columns they leak.',
    icon: <Database />,
    evidence: {
      label: 'Evidence',
      lines: ['GET /rest/v1/profiles?select=*', '200 OK · 1,284 rows', 'columns: email, phone, stripe_customer_id'],
      tone: 'critical',
      badge: 'Critical',
    },
  },
  {
    title: 'Secrets in your JavaScript bundle',
    text: 'Every script the page loads, lazy chunks included, is searched for service_role keys, Stripe secret keys and more than 100 other secret patterns.',
    icon: <KeyRound />,
    evidence: {
      label: 'Evidence',
      lines: ['assets/checkout-9f3a1c.js:1:48211', 'sk_live_51Nq••••••••••••••••3xQ', 'Stripe secret key (full account access)'],
      tone: 'critical',
      badge: 'Critical',
    },
  },
  {
    title: 'Security headers graded like HTTP Observatory',
    text: 'CSP, HSTS, frame protection, cookies, CORS and TLS are scored with an HTTP Observatory-compatible grade, so you see the letter and exactly what lowers it.',
    icon: <ShieldCheck />,
    evidence: {
      label: 'Headers',
      lines: ['✗ Content-Security-Policy (−25)', '✓ Strict-Transport-Security', '✗ X-Frame-Options (−20)'],
      tone: 'high',
      badge: 'Grade D',
    },
  },
  {
    title: 'Reports your clients can read',
    text: 'Each finding comes with its evidence, its impact in plain words and how to fix it. Export HTML, PDF, CSV, JSON or SARIF for GitHub code scanning.',
    icon: <FileText />,
    evidence: {
      label: 'Exports',
      lines: ['report.html   report.pdf', 'findings.csv  findings.json', 'results.sarif → code scanning'],
      tone: 'info',
      badge: '5 formats',
    },
  },
  {
    title: 'Tests that run in a real browser',
    text: 'Describe a flow in plain English and an AI agent runs it in real Chromium: sign up, check out, try another user’s data. Every step is recorded.',
    icon: <MonitorPlay />,
    evidence: {
      label: 'Scenario',
      lines: ['✓ Sign up as a new user', '✓ Add a product to the cart', '✗ Open /orders/1042 (not yours): expected 403, got 200'],
      tone: 'critical',
      badge: '1 step failed',
    },
  },
];

const TONE_PALETTE = { critical: 'severity.critical', high: 'severity.high', info: 'brand' } as const;

/**
 * What vibeeval finds, one slide at a time. An accessible carousel: it never advances by itself; previous/
 * next buttons, the dots, the arrow keys and a swipe change the slide, and the change is announced.
 */
export function FeatureCarousel() {
  const [index, setIndex] = useState(0);
  const swipeStart = useRef<number | null>(null);
  const count = SLIDES.length;
  const go = (next: number) => setIndex((next + count) % count);

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'ArrowLeft') go(index - 1);
    else if (event.key === 'ArrowRight') go(index + 1);
    else return;
    event.preventDefault();
  };
  const onPointerDown = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse') swipeStart.current = event.clientX;
  };
  const onPointerUp = (event: PointerEvent) => {
    const start = swipeStart.current;
    swipeStart.current = null;
    if (start === null || Math.abs(event.clientX - start) < 40) return;
    go(event.clientX < start ? index + 1 : index - 1);
  };

  return (
    <Box as="section" aria-labelledby="features-title" py={{ base: '16', md: '24' }}>
      <Container maxW="6xl" px={{ base: '4', md: '6' }}>
        <Stack gap="3" textAlign="center" mb={{ base: '8', md: '12' }} maxW="2xl" mx="auto">
          <Text color="brand.fg" fontWeight="semibold" fontSize="sm" textTransform="uppercase" letterSpacing="wider">
            {CHECK_COUNT} checks, evidence for each
          </Text>
          <Heading as="h2" id="features-title" size={{ base: '2xl', md: '3xl' }} letterSpacing="tight" textWrap="balance">
            What vibeeval finds in AI-built apps
          </Heading>
        </Stack>

        <Box aria-roledescription="carousel" aria-label="Examples of findings" role="region" onKeyDown={onKeyDown} data-testid="feature-carousel">
          <Box overflow="hidden" borderRadius="l3" borderWidth="1px" bg="bg.panel" boxShadow="sm" onPointerDown={onPointerDown} onPointerUp={onPointerUp} touchAction="pan-y">
            <Flex
              aria-live="polite"
              transition="transform 0.45s cubic-bezier(0.22, 1, 0.36, 1)"
              _motionReduce={{ transition: 'none' }}
              style={{ transform: `translateX(-${index * 100}%)` }}
            >
              {SLIDES.map((slide, i) => (
                <SlideView key={slide.title} slide={slide} position={i + 1} count={count} current={i === index} />
              ))}
            </Flex>
          </Box>

          <Flex mt="6" align="center" justify="center" gap="4">
            <IconButton aria-label="Previous slide" variant="outline" rounded="full" onClick={() => go(index - 1)}>
              <ChevronLeft />
            </IconButton>
            <HStack gap="1" role="group" aria-label="Choose a slide">
              {SLIDES.map((slide, i) => (
                <chakra.button
                  key={slide.title}
                  type="button"
                  aria-label={`Slide ${i + 1}: ${slide.title}`}
                  aria-current={i === index ? 'true' : undefined}
                  onClick={() => go(i)}
                  // A 24 px target around a small dot.
                  w="6"
                  h="6"
                  display="grid"
                  placeItems="center"
                  cursor="pointer"
                  borderRadius="full"
                  focusVisibleRing="outside"
                >
                  <Box as="span" h="2.5" w={i === index ? '6' : '2.5'} borderRadius="full" bg={i === index ? 'brand.solid' : 'gray.400'} transition="width 0.2s, background 0.2s" />
                </chakra.button>
              ))}
            </HStack>
            <IconButton aria-label="Next slide" variant="outline" rounded="full" onClick={() => go(index + 1)}>
              <ChevronRight />
            </IconButton>
          </Flex>
        </Box>
      </Container>
    </Box>
  );
}

function SlideView({ slide, position, count, current }: { slide: Slide; position: number; count: number; current: boolean }) {
  const palette = TONE_PALETTE[slide.evidence.tone];
  return (
    <Box
      role="group"
      aria-roledescription="slide"
      aria-label={`${position} of ${count}`}
      aria-hidden={!current || undefined}
      inert={!current}
      flex="0 0 100%"
      minW="0"
      p={{ base: '6', md: '10' }}
      data-current={current || undefined}
    >
      <Flex direction={{ base: 'column', md: 'row' }} gap={{ base: '6', md: '10' }} align={{ base: 'stretch', md: 'center' }}>
        <Stack gap="4" flex="1" minW="0">
          <Flex w="12" h="12" align="center" justify="center" borderRadius="l2" bg="brand.subtle" color="brand.fg">
            <Icon boxSize="6" aria-hidden="true">
              {slide.icon}
            </Icon>
          </Flex>
          <Heading as="h3" size={{ base: 'xl', md: '2xl' }} letterSpacing="tight">
            {slide.title}
          </Heading>
          <Text color="fg.muted" fontSize={{ base: 'md', md: 'lg' }}>
            {slide.text}
          </Text>
        </Stack>
        <Box flex="1" minW="0" borderRadius="l2" bg="gray.900" color="gray.100" p={{ base: '4', md: '5' }} fontFamily="mono" fontSize={{ base: 'xs', md: 'sm' }}>
          <HStack justify="space-between" mb="3" fontFamily="body">
            <Text fontSize="xs" color="gray.300" textTransform="uppercase" letterSpacing="wider">
              {slide.evidence.label}
            </Text>
            <Badge colorPalette={palette} variant="subtle">
              {slide.evidence.badge}
            </Badge>
          </HStack>
          <Stack gap="1.5">
            {slide.evidence.lines.map((line) => (
              <Text key={line} whiteSpace="pre-wrap" overflowWrap="anywhere">
                {line}
              </Text>
            ))}
          </Stack>
        </Box>
      </Flex>
    </Box>
  );
}
