import { Badge, Box, Container, HStack, Icon, Link, LinkBox, LinkOverlay, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { ArrowLeft, ArrowRight, CalendarDays, Clock } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { PageHeading } from '../../ui/page-heading';
import { Prose } from '../../ui/prose';
import { articleAt, formatArticleDate, neighbours, type Article } from './articles';

/** The measure of an article's text; wide parts (the comparison table) use their own container. */
export const ARTICLE_WIDTH = '3xl';

/** An article page: back link, topic, title, date and reading time, the body, then previous/next. */
export function ArticleLayout({ path, children }: { path: string; children: ReactNode }) {
  const article = articleAt(path);
  const { previous, next } = neighbours(path);
  return (
    <Box as="article" py={{ base: '8', md: '14' }}>
      <Container maxW={ARTICLE_WIDTH} px={{ base: '4', md: '6' }}>
        <BackToUpdates />
        <Box mt="8" mb="3">
          <Badge colorPalette="brand" variant="subtle" size="md">
            {article.topic}
          </Badge>
        </Box>
        <PageHeading title={article.title} />
        <HStack gap="5" wrap="wrap" color="fg.muted" fontSize="sm" mt="-3" mb="8" pb="6" borderBottomWidth="1px">
          <HStack gap="1.5">
            <Icon boxSize="4" aria-hidden="true">
              <CalendarDays />
            </Icon>
            <time dateTime={article.date}>{formatArticleDate(article.date)}</time>
          </HStack>
          <HStack gap="1.5">
            <Icon boxSize="4" aria-hidden="true">
              <Clock />
            </Icon>
            <Text>{article.readingMinutes} min read</Text>
          </HStack>
          <Text>By the vibeeval team</Text>
        </HStack>
      </Container>
      {children}
      <Container maxW={ARTICLE_WIDTH} px={{ base: '4', md: '6' }} mt="14">
        <Box as="nav" aria-label="More articles" borderTopWidth="1px" pt="8">
          <SimpleGrid columns={{ base: 1, sm: 2 }} gap="4">
            {previous ? <NeighbourCard article={previous} direction="previous" /> : <Box hideBelow="sm" />}
            {next && <NeighbourCard article={next} direction="next" />}
          </SimpleGrid>
          <Box mt="8">
            <BackToUpdates />
          </Box>
        </Box>
      </Container>
    </Box>
  );
}

/** The article text in the readable measure. */
export function ArticleBody({ children }: { children: ReactNode }) {
  return (
    <Container maxW={ARTICLE_WIDTH} px={{ base: '4', md: '6' }}>
      <Prose maxW="none" fontSize={{ base: 'md', md: 'lg' }}>
        {children}
      </Prose>
    </Container>
  );
}

function BackToUpdates() {
  return (
    <Link asChild color="brand.fg" fontWeight="medium" fontSize="sm">
      <RouterLink to="/updates">
        <ArrowLeft size="16" aria-hidden="true" />
        Back to Updates
      </RouterLink>
    </Link>
  );
}

function NeighbourCard({ article, direction }: { article: Article; direction: 'previous' | 'next' }) {
  const isNext = direction === 'next';
  return (
    <LinkBox
      borderWidth="1px"
      borderRadius="lg"
      p="4"
      transition="border-color 0.15s, box-shadow 0.15s"
      _hover={{ borderColor: 'brand.emphasized', shadow: 'sm' }}
      _focusWithin={{ borderColor: 'brand.solid' }}
      textAlign={isNext ? { base: 'start', sm: 'end' } : 'start'}
      gridColumn={isNext ? { sm: '2' } : undefined}
    >
      <Stack gap="1" align={isNext ? { base: 'start', sm: 'end' } : 'start'}>
        <HStack gap="1" fontSize="xs" fontWeight="semibold" textTransform="uppercase" letterSpacing="wide" color="fg.muted">
          {!isNext && <ArrowLeft size="14" aria-hidden="true" />}
          <Text>{isNext ? 'Next article' : 'Previous article'}</Text>
          {isNext && <ArrowRight size="14" aria-hidden="true" />}
        </HStack>
        <LinkOverlay asChild fontWeight="semibold" color="fg" lineHeight="1.4">
          <RouterLink to={article.path} rel={direction}>
            {article.title}
          </RouterLink>
        </LinkOverlay>
      </Stack>
    </LinkBox>
  );
}

/** A code example in an article; focusable, so keyboard users can scroll long lines sideways. */
export function CodeBlock({ code }: { code: string }) {
  return (
    <Box as="pre" tabIndex={0} _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' }}>
      <code>{code}</code>
    </Box>
  );
}
