import { Badge, Box, Card, Container, HStack, Heading, Icon, LinkBox, LinkOverlay, SimpleGrid, Tabs, Text } from '@chakra-ui/react';
import { ArrowRight, CalendarDays, Clock } from 'lucide-react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { PageHeading } from '../../ui/page-heading';
import { ARTICLES, formatArticleDate, type Article } from './articles';
import { ReleaseNotes } from './release-notes';
import { Webinars } from './webinars';

const TABS = [
  { value: 'articles', label: 'Articles' },
  { value: 'release-notes', label: 'Release Notes' },
  { value: 'webinars', label: 'Webinars' },
] as const;
type Tab = (typeof TABS)[number]['value'];
const isTab = (value: string | null): value is Tab => TABS.some((tab) => tab.value === value);

/** /updates: Articles (default), Release Notes and Webinars; the tab lives in the address (?tab=webinars). */
export function UpdatesPage() {
  const [params, setParams] = useSearchParams();
  const tabParam = params.get('tab');
  const tab: Tab = isTab(tabParam) ? tabParam : 'articles';

  return (
    <Container maxW="6xl" px={{ base: '4', md: '6' }} py={{ base: '8', md: '14' }}>
      <PageHeading title="Updates" subtitle="Articles, release notes and webinars from the vibeeval team." />
      <Tabs.Root
        value={tab}
        onValueChange={(details) =>
          setParams(
            (previous) => {
              const next = new URLSearchParams(previous);
              if (details.value === 'articles') next.delete('tab');
              else next.set('tab', details.value);
              return next;
            },
            { replace: true, preventScrollReset: true },
          )
        }
        variant="line"
        colorPalette="brand"
        size={{ base: 'sm', sm: 'md' }}
      >
        <Tabs.List mb="6" overflowX="auto" overflowY="hidden" css={{ scrollbarWidth: 'none' }}>
          {TABS.map((item) => (
            <Tabs.Trigger key={item.value} value={item.value} flexShrink="0" px={{ base: '3', sm: '4' }}>
              {item.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value="articles" pt="0">
          <SimpleGrid columns={{ base: 1, md: 2, lg: 3 }} gap="5">
            {ARTICLES.map((article) => (
              <ArticleCard key={article.path} article={article} />
            ))}
          </SimpleGrid>
        </Tabs.Content>
        <Tabs.Content value="release-notes" pt="0">
          <ReleaseNotes />
        </Tabs.Content>
        <Tabs.Content value="webinars" pt="0">
          <Webinars />
        </Tabs.Content>
      </Tabs.Root>
    </Container>
  );
}

function ArticleCard({ article }: { article: Article }) {
  return (
    <LinkBox asChild>
      <Card.Root
        h="full"
        variant="outline"
        transition="border-color 0.15s, box-shadow 0.15s, transform 0.15s"
        _hover={{ borderColor: 'brand.emphasized', shadow: 'md', transform: 'translateY(-2px)' }}
        _focusWithin={{ borderColor: 'brand.solid', shadow: 'md' }}
        data-testid="article-card"
      >
        <Box h="1.5" bgGradient="to-r" gradientFrom="brand.solid" gradientTo="brand.emphasized" borderTopRadius="inherit" />
        <Card.Body gap="3">
          <Badge colorPalette="brand" variant="subtle" alignSelf="start">
            {article.topic}
          </Badge>
          <Heading as="h2" size="md" lineHeight="1.35">
            <LinkOverlay asChild>
              <RouterLink to={article.path}>{article.title}</RouterLink>
            </LinkOverlay>
          </Heading>
          <Text color="fg.muted" fontSize="sm" lineHeight="1.6">
            {article.summary}
          </Text>
        </Card.Body>
        <Card.Footer flexDirection="column" alignItems="stretch" gap="3" pt="0">
          <HStack gap="4" fontSize="xs" color="fg.muted" wrap="wrap">
            <HStack gap="1">
              <Icon boxSize="3.5" aria-hidden="true">
                <CalendarDays />
              </Icon>
              <time dateTime={article.date}>{formatArticleDate(article.date)}</time>
            </HStack>
            <HStack gap="1">
              <Icon boxSize="3.5" aria-hidden="true">
                <Clock />
              </Icon>
              <Text>{article.readingMinutes} min read</Text>
            </HStack>
          </HStack>
          <HStack gap="1" color="brand.fg" fontWeight="medium" fontSize="sm" aria-hidden="true">
            Read article <ArrowRight size={14} />
          </HStack>
        </Card.Footer>
      </Card.Root>
    </LinkBox>
  );
}
