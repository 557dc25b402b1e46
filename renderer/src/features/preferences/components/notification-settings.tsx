import { Card, Skeleton, Stack, Switch, Text } from '@chakra-ui/react';
import type { Preferences } from '@common/preferences';
import { LoadErrorCard } from '../../../ui/load-error-card';
import { usePreferences } from '../hooks/use-preferences';
import { useUpdatePreferences } from '../hooks/use-update-preferences';
import { texts } from '../texts';

/** The two notification toggles, each saved as it changes. */
export function NotificationSettings() {
  const preferences = usePreferences();
  const update = useUpdatePreferences();
  if (preferences.isError) {
    return <LoadErrorCard problem={texts.loadFailed} reason={preferences.error.message} actionLabel={texts.retry} onAction={() => void preferences.refetch()} />;
  }
  return (
    <Card.Root as="section" aria-labelledby="notifications-title" variant="outline">
      <Card.Header>
        <Card.Title as="h2" id="notifications-title">
          {texts.notificationsTitle}
        </Card.Title>
      </Card.Header>
      <Card.Body>
        {preferences.isPending ? (
          <Stack gap="6" aria-busy="true">
            <Skeleton h="12" />
            <Skeleton h="12" />
          </Stack>
        ) : (
          <Stack gap="6">
            <Toggle
              id="email-notifications"
              label={texts.emailNotifications}
              help={texts.emailNotificationsHelp}
              setting="email_notifications"
              value={preferences.data}
              onChange={(patch) => update.mutate(patch)}
            />
            <Toggle
              id="webhook-notifications"
              label={texts.webhookNotifications}
              help={texts.webhookNotificationsHelp}
              setting="webhook_notifications"
              value={preferences.data}
              onChange={(patch) => update.mutate(patch)}
            />
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function Toggle({
  id,
  label,
  help,
  setting,
  value,
  onChange,
}: {
  id: string;
  label: string;
  help: string;
  setting: keyof Preferences;
  value: Preferences;
  onChange: (patch: Partial<Preferences>) => void;
}) {
  return (
    <Stack gap="1">
      <Switch.Root colorPalette="brand" checked={value[setting]} onCheckedChange={(details) => onChange({ [setting]: details.checked })} data-testid={id}>
        <Switch.HiddenInput aria-describedby={`${id}-help`} />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label fontWeight="medium">{label}</Switch.Label>
      </Switch.Root>
      <Text id={`${id}-help`} fontSize="sm" color="fg.muted">
        {help}
      </Text>
    </Stack>
  );
}
