import { Accordion, Box, Button, Card, Heading, HStack, Icon, Link, Stack, Tabs, Text, Wrap } from '@chakra-ui/react';
import { mailto } from '@common/marketing';
import { Clock, HelpCircle, Mail } from 'lucide-react';
import { Link as RouterLink, useSearchParams } from 'react-router-dom';
import { PageHeading } from '../../ui/page-heading';
import { texts } from './texts';

const TABS = ['contact', 'faq'] as const;
type Tab = (typeof TABS)[number];

/** /dashboard/support: Contact (the support email and the reply time) and FAQ; the tab is kept in ?tab=. */
export function SupportPage() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: Tab = TABS.includes(requested as Tab) ? (requested as Tab) : 'contact';
  const open = (next: Tab) => setParams(next === 'contact' ? {} : { tab: next }, { replace: true });
  return (
    <>
      <PageHeading title={texts.title} subtitle={texts.subtitle} />
      <Tabs.Root value={tab} onValueChange={(details) => open(details.value as Tab)} variant="line">
        <Tabs.List mb="4">
          <Tabs.Trigger value="contact">
            <Mail aria-hidden /> {texts.tabs.contact}
          </Tabs.Trigger>
          <Tabs.Trigger value="faq">
            <HelpCircle aria-hidden /> {texts.tabs.faq}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="contact">
          <ContactTab />
        </Tabs.Content>
        <Tabs.Content value="faq">
          <FaqTab />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}

function ContactTab() {
  return (
    <Card.Root variant="outline" maxW="2xl" data-testid="support-contact">
      <Card.Body gap="4">
        <Heading as="h2" size="md">
          {texts.contactTitle}
        </Heading>
        <Text color="fg.muted">{texts.contactIntro}</Text>
        <Stack gap="1">
          <Text fontSize="sm" color="fg.muted">
            {texts.emailLabel}
          </Text>
          <Link href={mailto(texts.email, texts.emailSubject)} fontWeight="semibold" fontSize="lg" color="brand.fg" wordBreak="break-all" data-testid="support-email">
            {texts.email}
          </Link>
        </Stack>
        <HStack gap="2" align="start">
          <Icon color="fg.muted" mt="0.5" flexShrink={0}>
            <Clock aria-hidden />
          </Icon>
          <Text data-testid="support-reply-time">{texts.replyTime}</Text>
        </HStack>
        <Box>
          <Button asChild colorPalette="brand">
            <a href={mailto(texts.email, texts.emailSubject)}>
              <Mail aria-hidden /> Email support
            </a>
          </Button>
        </Box>
      </Card.Body>
    </Card.Root>
  );
}

function FaqTab() {
  return (
    <Stack gap="4" maxW="3xl" data-testid="support-faq">
      <Heading as="h2" size="md">
        {texts.faqTitle}
      </Heading>
      <Accordion.Root multiple collapsible variant="enclosed" defaultValue={texts.faq.map((entry) => entry.id)}>
        {texts.faq.map((entry) => (
          <Accordion.Item key={entry.id} value={entry.id} data-testid={`faq-${entry.id}`}>
            <Accordion.ItemTrigger cursor="pointer">
              <Text as="span" flex="1" fontWeight="semibold" textAlign="start">
                {entry.question}
              </Text>
              <Accordion.ItemIndicator />
            </Accordion.ItemTrigger>
            <Accordion.ItemContent>
              <Accordion.ItemBody>
                <Stack gap="3">
                  <Text>{entry.answer}</Text>
                  <Wrap gap="2">
                    {entry.links.map((link) => (
                      <Button key={link.to} asChild size="sm" variant="outline">
                        <RouterLink to={link.to}>{link.label}</RouterLink>
                      </Button>
                    ))}
                  </Wrap>
                </Stack>
              </Accordion.ItemBody>
            </Accordion.ItemContent>
          </Accordion.Item>
        ))}
      </Accordion.Root>
    </Stack>
  );
}
