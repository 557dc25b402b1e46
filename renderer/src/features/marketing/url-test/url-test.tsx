import { Badge, Box, Button, Field, Grid, HStack, Icon, Input, Stack, Text, Wrap } from '@chakra-ui/react';
import { DEMO_LABELS, DEMO_TYPES, DEMO_URLS, MARKETING_TIMING, PUBLIC_SCAN_MESSAGES, URL_MESSAGES, canSubmitUrl, type DemoType } from '@common/marketing';
import { Building2, FileSearch, Landmark, ScanSearch, ShoppingCart, Users } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { notify } from '../../../ui/toaster';
import { EmailDialog, type ReportTarget } from './email-dialog';
import { OwnDomainDialog } from './own-domain-dialog';
import { SampleReportCard } from './sample-report-card';
import { useUrlStatus } from './use-url-status';

const DEMO_ICONS: Record<DemoType, typeof ShoppingCart> = { ecommerce: ShoppingCart, social: Users, banking: Landmark };

/** What the field says under it for each status. */
function StatusLine({ status }: { status: ReturnType<typeof useUrlStatus>['check']['status'] }) {
  if (status === 'valid') {
    return (
      <HStack gap="2" wrap="wrap">
        <Text color="severity.secure.fg" fontSize="sm">
          {URL_MESSAGES.valid}
        </Text>
        <Badge colorPalette="severity.secure" variant="subtle">
          {URL_MESSAGES.validBadge}
        </Badge>
      </HStack>
    );
  }
  if (status === 'lovable-project') {
    return (
      <HStack gap="2" wrap="wrap" align="start">
        <Text color="severity.critical.fg" fontSize="sm">
          {URL_MESSAGES.lovableProject}
        </Text>
        <Badge colorPalette="severity.moderate" variant="solid">
          {URL_MESSAGES.lovableBadge}
        </Badge>
      </HStack>
    );
  }
  if (status === 'invalid') {
    return (
      <Text color="severity.critical.fg" fontSize="sm">
        {URL_MESSAGES.invalid}
      </Text>
    );
  }
  return (
    <Text color="fg.muted" fontSize="sm">
      Paste the address of your deployed app, for example my-app.lovable.app
    </Text>
  );
}

/**
 * The hero's URL test: the field with its live status, submit ('Testing...' for a moment, then the email dialog),
 * the three demo examples, the sample report card, and the dialogs. The report itself is produced by a real scan
 * on the server once an email is given.
 */
export function UrlTest() {
  const url = useUrlStatus();
  const [submitting, setSubmitting] = useState(false);
  const [target, setTarget] = useState<ReportTarget | null>(null);
  const [ownDomain, setOwnDomain] = useState(false);
  const [sample, setSample] = useState<DemoType | 'default' | null>('default');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    try {
      const now = url.settle();
      if (now.status !== 'valid' || !now.url) return;
      if (now.ownDomain) {
        setOwnDomain(true);
        return;
      }
      setSubmitting(true);
      const tested = now.url;
      timer.current = setTimeout(() => {
        setSubmitting(false);
        setTarget({ kind: 'url', url: tested });
      }, MARKETING_TIMING.simulatedScanMs);
    } catch {
      setSubmitting(false);
      notify.error(PUBLIC_SCAN_MESSAGES.submitFailed);
    }
  };

  const chooseDemo = (demo: DemoType) => {
    url.choose(DEMO_URLS[demo]);
    setSample(demo);
    setTarget({ kind: 'demo', demo });
  };

  const status = url.check.status;
  const invalid = status === 'invalid' || status === 'lovable-project';
  return (
    <Grid data-testid="url-test" templateColumns={{ base: '1fr', lg: 'minmax(0, 1.1fr) minmax(0, 1fr)' }} gap={{ base: '6', lg: '8' }} alignItems="start" textAlign="start">
      <Stack gap="5" borderWidth="1px" borderRadius="xl" bg="bg.panel" shadow="md" p={{ base: '4', md: '6' }}>
        <form method="post" onSubmit={submit} noValidate aria-label="Test a website">
          <Stack gap="3">
            <Field.Root invalid={invalid}>
              <Field.Label fontSize="md" fontWeight="semibold">
                Website URL
              </Field.Label>
              <Stack direction={{ base: 'column', sm: 'row' }} gap="2" w="full">
                <Input
                  name="url"
                  inputMode="url"
                  autoComplete="url"
                  spellCheck={false}
                  size="lg"
                  placeholder="https://your-app.lovable.app"
                  value={url.input}
                  onChange={(e) => url.type(e.target.value)}
                  aria-describedby="url-status"
                  data-status={status}
                />
                <Button
                  type="submit"
                  size="lg"
                  colorPalette="brand"
                  flexShrink="0"
                  disabled={!canSubmitUrl(url.input, status, submitting)}
                  loading={submitting}
                  loadingText="Testing..."
                  spinnerPlacement="start"
                >
                  <ScanSearch aria-hidden="true" />
                  Test for free
                </Button>
              </Stack>
              <Box id="url-status" aria-live="polite" minH="6" data-testid="url-status">
                <StatusLine status={status} />
              </Box>
            </Field.Root>
          </Stack>
        </form>
        <Stack gap="2">
          <Text fontSize="sm" fontWeight="medium" color="fg.muted" id="demo-examples-label">
            No app at hand? Try a demo example:
          </Text>
          <Wrap gap="2" role="group" aria-labelledby="demo-examples-label">
            {DEMO_TYPES.map((demo) => {
              const DemoIcon = DEMO_ICONS[demo];
              return (
                <Button key={demo} variant="outline" size="sm" onClick={() => chooseDemo(demo)} data-demo={demo}>
                  <DemoIcon aria-hidden="true" />
                  {DEMO_LABELS[demo]}
                </Button>
              );
            })}
          </Wrap>
        </Stack>
        <HStack gap="2" color="fg.muted" fontSize="xs">
          <Icon boxSize="3.5" aria-hidden="true">
            <Building2 />
          </Icon>
          <Text>Scan only sites you own or may test. Read-only: nothing on the site is changed.</Text>
        </HStack>
      </Stack>
      {sample ? (
        <SampleReportCard type={sample} onClose={() => setSample(null)} />
      ) : (
        <Button variant="ghost" alignSelf="center" justifySelf="center" onClick={() => setSample('default')}>
          <FileSearch aria-hidden="true" />
          Show sample report
        </Button>
      )}
      <EmailDialog target={target} onClose={() => setTarget(null)} />
      <OwnDomainDialog open={ownDomain} onClose={() => setOwnDomain(false)} />
    </Grid>
  );
}
