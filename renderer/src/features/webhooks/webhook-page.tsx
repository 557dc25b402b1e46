import { Grid, Stack } from '@chakra-ui/react';
import type { CreatedWebhook } from '@common/webhooks';
import { useState } from 'react';
import { PageHeading } from '../../ui/page-heading';
import { EventTypes } from './components/event-types';
import { NotificationsOffNotice } from './components/notifications-off-notice';
import { SecretPanel } from './components/secret-panel';
import { WebhookForm } from './components/webhook-form';
import { WebhookList } from './components/webhook-list';
import { texts } from './texts';

/** /dashboard/webhook: the config form, the signing secret after a save, the webhooks with deliveries, event types. */
export function WebhookPage() {
  const [saved, setSaved] = useState<CreatedWebhook | null>(null);
  return (
    <>
      <PageHeading title={texts.title} subtitle={texts.subtitle} />
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', xl: 'minmax(0, 2fr) minmax(0, 1fr)' }} gap="6" alignItems="start">
        <Stack gap="6" minW="0">
          <NotificationsOffNotice />
          <WebhookForm onSaved={setSaved} />
          {/* A chat format's deliveries are not signed: its secret would only be a puzzle. */}
          {saved?.format === 'standard' && <SecretPanel webhook={saved} onDismiss={() => setSaved(null)} />}
          <WebhookList />
        </Stack>
        <EventTypes />
      </Grid>
    </>
  );
}
