import { Badge, Button, Card, HStack, Heading, Icon, Stack, Text } from '@chakra-ui/react';
import { CONTACT, mailto } from '@common/marketing';
import { CalendarClock, Mail, PlayCircle, Radio } from 'lucide-react';
import { ExternalLink } from '../../ui/external-link';

interface Webinar {
  title: string;
  description: string;
  /** Start, in UTC. */
  startsAt: string;
  minutes: number;
  status: 'upcoming' | 'recorded';
}

const WEBINARS: Webinar[] = [
  {
    title: 'Securing a Lovable app before launch',
    description:
      'A live walkthrough on a demo app: turning on Row Level Security, moving a leaked key into an Edge Function, adding security headers, and rescanning until the grade is green.',
    startsAt: '2026-12-03T17:00:00Z',
    minutes: 45,
    status: 'upcoming',
  },
  {
    title: 'Security scans in CI: --fail-on, SARIF and GitHub code scanning',
    description: 'Setting up a scan on every deploy, choosing a failure threshold, and triaging findings in the Security tab of a repository.',
    startsAt: '2026-12-17T17:00:00Z',
    minutes: 40,
    status: 'upcoming',
  },
  {
    title: 'Supabase RLS for people who did not write the SQL',
    description: 'How the anon key, RLS policies, views and storage buckets fit together, and how to read a table-exposure finding with its HEAD request evidence.',
    startsAt: '2026-11-19T17:00:00Z',
    minutes: 50,
    status: 'recorded',
  },
];

const formatSession = (iso: string) =>
  new Date(iso).toLocaleString('en-GB', {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: 'UTC',
  });

/** The Webinars tab: upcoming sessions (register by email) and recorded ones (recording on request). */
export function Webinars() {
  return (
    <Stack gap="4" data-testid="webinars">
      <Text color="fg.muted" maxW="70ch">
        Free live sessions with the vibeeval team, with time for your questions. Registration is by email: we reply with the meeting link and a calendar invitation.
      </Text>
      {WEBINARS.map((webinar) => (
        <WebinarCard key={webinar.title} webinar={webinar} />
      ))}
    </Stack>
  );
}

function WebinarCard({ webinar }: { webinar: Webinar }) {
  const upcoming = webinar.status === 'upcoming';
  const action = upcoming ? 'Register by email' : 'Request the recording';
  const subject = upcoming ? `Webinar registration: ${webinar.title}` : `Webinar recording: ${webinar.title}`;
  return (
    <Card.Root variant="outline" data-testid="webinar" data-status={webinar.status}>
      <Card.Body gap="3" p={{ base: '4', md: '6' }}>
        <HStack gap="3" wrap="wrap">
          <Badge colorPalette={upcoming ? 'green' : 'gray'} variant="subtle" size="md" gap="1">
            <Icon boxSize="3.5" aria-hidden="true">
              {upcoming ? <Radio /> : <PlayCircle />}
            </Icon>
            {upcoming ? 'Upcoming' : 'Recorded'}
          </Badge>
          <HStack gap="1.5" fontSize="sm" color="fg.muted">
            <Icon boxSize="4" aria-hidden="true">
              <CalendarClock />
            </Icon>
            <Text>
              <time dateTime={webinar.startsAt}>{formatSession(webinar.startsAt)} UTC</time> · {webinar.minutes} min
            </Text>
          </HStack>
        </HStack>
        <Heading as="h2" size="lg" lineHeight="1.3">
          {webinar.title}
        </Heading>
        <Text color="fg.muted" maxW="75ch">
          {webinar.description}
        </Text>
        <HStack gap="3" wrap="wrap" pt="1">
          <Button asChild size="sm" colorPalette="brand" variant={upcoming ? 'solid' : 'outline'}>
            <ExternalLink href={mailto(CONTACT.support, subject)} aria-label={`${action}: ${webinar.title}`} _hover={{ textDecoration: 'none' }}>
              <Mail aria-hidden /> {action}
            </ExternalLink>
          </Button>
          {!upcoming && (
            <Text fontSize="sm" color="fg.muted">
              The recording is sent on request by email.
            </Text>
          )}
        </HStack>
      </Card.Body>
    </Card.Root>
  );
}
