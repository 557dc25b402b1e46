import { Box, Container, Flex, Heading, IconButton, chakra } from '@chakra-ui/react';
import { MARKETING_TIMING } from '@common/marketing';
import { Pause, Play } from 'lucide-react';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useClientValue } from '../../../app/hydration';

/** A small neutral glyph before each name: plain geometry, none of the tools' own artwork. */
const GLYPHS: Record<string, ReactNode> = {
  circle: <circle cx="10" cy="10" r="7" />,
  square: <rect x="3" y="3" width="14" height="14" rx="3" />,
  diamond: <path d="M10 2 18 10 10 18 2 10Z" />,
  triangle: <path d="M10 3 18 17H2Z" />,
  hexagon: <path d="M10 2 17 6v8l-7 4-7-4V6Z" />,
  ring: <circle cx="10" cy="10" r="6" fill="none" stroke="currentColor" strokeWidth="3" />,
};

/** The AI coding tools and hosting platforms whose apps vibeeval scans. */
const TOOLS: { name: string; glyph: keyof typeof GLYPHS }[] = [
  { name: 'Lovable', glyph: 'circle' },
  { name: 'Bolt', glyph: 'triangle' },
  { name: 'v0', glyph: 'square' },
  { name: 'Cursor', glyph: 'diamond' },
  { name: 'Replit', glyph: 'hexagon' },
  { name: 'Windsurf', glyph: 'ring' },
  { name: 'Claude Code', glyph: 'circle' },
  { name: 'Base44', glyph: 'square' },
  { name: 'Supabase', glyph: 'triangle' },
  { name: 'Firebase', glyph: 'diamond' },
  { name: 'Vercel', glyph: 'hexagon' },
  { name: 'Netlify', glyph: 'ring' },
];

const reducedMotionQuery = '(prefers-reduced-motion: reduce)';

const subscribeReducedMotion = (onChange: () => void) => {
  const query = window.matchMedia(reducedMotionQuery);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};

/**
 * True while the visitor asks for reduced motion; follows changes of the setting. The prerendered page (no
 * browser to ask) has the strip's one-line layout, which most visitors keep, so it does not jump on hydration;
 * it starts moving only once hydrated.
 */
function usePrefersReducedMotion() {
  return useClientValue(subscribeReducedMotion, () => window.matchMedia(reducedMotionQuery).matches, false);
}

function ToolList({ duplicate }: { duplicate?: boolean }) {
  return (
    <Flex
      as="ul"
      listStyleType="none"
      flexShrink="0"
      align="center"
      gap={{ base: '10', md: '14' }}
      // The trailing space equals the gap, so the second copy starts exactly one list-width later.
      pe={{ base: '10', md: '14' }}
      aria-hidden={duplicate || undefined}
      data-copy={duplicate ? 'duplicate' : 'original'}
    >
      {TOOLS.map((tool) => (
        <chakra.li
          key={tool.name}
          display="flex"
          alignItems="center"
          gap="2"
          whiteSpace="nowrap"
          color="fg.muted"
          fontWeight="semibold"
          fontSize={{ base: 'lg', md: 'xl' }}
          letterSpacing="tight"
        >
          <svg width="20" height="20" viewBox="0 0 20 20" fill="currentColor" aria-hidden="true" focusable="false">
            {GLYPHS[tool.glyph]}
          </svg>
          {tool.name}
        </chakra.li>
      ))}
    </Flex>
  );
}

/**
 * The strip of AI coding tools: it moves one pixel every `logoStepMs` and loops seamlessly over a second,
 * hidden copy of the list. It stops while hovered or focused, when paused with its button, and never moves
 * when the visitor prefers reduced motion (the list then wraps instead). The offset is exposed as data-offset.
 */
export function ToolLogos() {
  const reducedMotion = usePrefersReducedMotion();
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [paused, setPaused] = useState(false);
  const trackRef = useRef<HTMLDivElement>(null);
  const offset = useRef(0);
  const moving = !reducedMotion && !hovered && !focused && !paused;

  useEffect(() => {
    if (!moving) return;
    const timer = window.setInterval(() => {
      const track = trackRef.current;
      if (!track) return;
      const loop = (track.firstElementChild as HTMLElement | null)?.offsetWidth ?? 0;
      offset.current = loop > 0 ? (offset.current + 1) % loop : offset.current + 1;
      track.style.transform = `translateX(-${offset.current}px)`;
      track.dataset.offset = String(offset.current);
    }, MARKETING_TIMING.logoStepMs);
    return () => window.clearInterval(timer);
  }, [moving]);

  return (
    <Box
      as="section"
      aria-labelledby="tool-logos-title"
      py={{ base: '8', md: '10' }}
      borderYWidth="1px"
      bg="bg.subtle"
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
    >
      <Container maxW="7xl" px={{ base: '4', md: '6' }}>
        <Flex align="center" justify="center" gap="2" mb={{ base: '5', md: '6' }}>
          <Heading as="h2" id="tool-logos-title" size="sm" fontWeight="medium" color="fg.muted" textAlign="center">
            Scans apps built with any AI coding tool
          </Heading>
          {!reducedMotion && (
            <IconButton
              aria-label={paused ? 'Play the logo animation' : 'Pause the logo animation'}
              aria-pressed={paused}
              variant="ghost"
              size="2xs"
              color="fg.muted"
              onClick={() => setPaused((value) => !value)}
            >
              {paused ? <Play /> : <Pause />}
            </IconButton>
          )}
        </Flex>
      </Container>
      {reducedMotion ? (
        <Container maxW="5xl" px={{ base: '4', md: '6' }} css={{ '& ul': { flexWrap: 'wrap', justifyContent: 'center', rowGap: '4', pe: '0' } }}>
          <ToolList />
        </Container>
      ) : (
        <Box
          overflow="hidden"
          // Soft edges: the names fade in and out instead of being cut.
          css={{ maskImage: 'linear-gradient(to right, transparent, black 8%, black 92%, transparent)' }}
          data-testid="tool-logos"
        >
          <Flex ref={trackRef} w="max-content" willChange="transform" data-offset="0" data-testid="tool-logos-track">
            <ToolList />
            <ToolList duplicate />
          </Flex>
        </Box>
      )}
    </Box>
  );
}
