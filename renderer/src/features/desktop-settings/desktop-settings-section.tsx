import { Alert, Button, Card, Field, HStack, Input, RadioGroup, Skeleton, Stack, Switch, Text } from '@chakra-ui/react';
import type { DesktopSettings } from '@common/desktop-settings';
import { RotateCcw } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { DesktopSettingsApi } from '../../bridge';
import { useDesktopSettings, useRelaunch, useSetDesktopNotifications, useSetServer } from './hooks/use-desktop-settings';
import { parseServerForm, serverFormChanged, serverFormOf, type ServerForm } from './server-form';
import { texts } from './texts';

/** Preferences › 'Desktop app': desktop notifications and the server the app uses. Desktop app only. */
export function DesktopSettingsSection({ api }: { api: DesktopSettingsApi }) {
  const settings = useDesktopSettings(api);
  return (
    <Card.Root as="section" aria-labelledby="desktop-settings-title" data-testid="desktop-settings">
      <Card.Header>
        <Card.Title as="h2" id="desktop-settings-title">
          {texts.title}
        </Card.Title>
        <Card.Description>{texts.subtitle}</Card.Description>
      </Card.Header>
      <Card.Body>
        {settings.isPending ? (
          <Stack gap="4" aria-busy="true">
            <Skeleton h="6" w="60" />
            <Skeleton h="24" />
          </Stack>
        ) : settings.isError ? (
          <Text color="fg.error" role="alert">
            {texts.loadFailed}
          </Text>
        ) : (
          <Stack gap="8">
            <NotificationsSwitch api={api} enabled={settings.data.desktopNotifications} />
            <ServerChoiceForm key={JSON.stringify(settings.data.server)} api={api} settings={settings.data} />
          </Stack>
        )}
      </Card.Body>
    </Card.Root>
  );
}

function NotificationsSwitch({ api, enabled }: { api: DesktopSettingsApi; enabled: boolean }) {
  const save = useSetDesktopNotifications(api);
  const checked = save.isPending ? save.variables : enabled;
  return (
    <Stack gap="1">
      <Switch.Root colorPalette="brand" checked={checked} onCheckedChange={(details) => save.mutate(details.checked)} disabled={save.isPending}>
        <Switch.HiddenInput aria-describedby="desktop-notifications-help" />
        <Switch.Control>
          <Switch.Thumb />
        </Switch.Control>
        <Switch.Label fontWeight="medium">{texts.notifications}</Switch.Label>
      </Switch.Root>
      <Text id="desktop-notifications-help" fontSize="sm" color="fg.muted">
        {texts.notificationsHelp}
      </Text>
    </Stack>
  );
}

function ServerChoiceForm({ api, settings }: { api: DesktopSettingsApi; settings: DesktopSettings }) {
  const [form, setForm] = useState<ServerForm>(() => serverFormOf(settings));
  const [error, setError] = useState<string | null>(null);
  const save = useSetServer(api);
  const relaunch = useRelaunch(api);
  const refused = save.data && !save.data.ok ? save.data.message : null;
  const message = error ?? refused;

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = parseServerForm(form);
    if ('error' in parsed) return setError(parsed.error);
    setError(null);
    save.mutate(parsed.choice);
  }

  const update = (next: Partial<ServerForm>) => {
    setForm((current) => ({ ...current, ...next }));
    setError(null);
    save.reset();
  };

  return (
    <form onSubmit={handleSubmit} noValidate aria-labelledby="desktop-server-label">
      <Stack gap="4">
        <Stack gap="1">
          <Text id="desktop-server-label" fontWeight="medium">
            {texts.server}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {texts.inUse}{' '}
            <Text as="span" fontFamily="mono" wordBreak="break-all">
              {settings.activeServerOrigin}
            </Text>
          </Text>
        </Stack>
        <RadioGroup.Root
          colorPalette="brand"
          value={form.mode}
          onValueChange={(details) => update({ mode: details.value === 'team' ? 'team' : 'embedded' })}
          aria-labelledby="desktop-server-label"
        >
          <Stack gap="3">
            <ServerOption value="embedded" label={texts.embedded} help={texts.embeddedHelp} />
            <ServerOption value="team" label={texts.team} help={texts.teamHelp} />
          </Stack>
        </RadioGroup.Root>
        {form.mode === 'team' && (
          <Field.Root invalid={message !== null} required>
            <Field.Label>{texts.teamUrl}</Field.Label>
            <Input
              type="url"
              inputMode="url"
              autoComplete="url"
              spellCheck={false}
              placeholder={texts.teamUrlPlaceholder}
              value={form.url}
              onChange={(event) => update({ url: event.target.value })}
              maxW={{ md: 'md' }}
            />
            {message && <Field.ErrorText>{message}</Field.ErrorText>}
          </Field.Root>
        )}
        {form.mode === 'embedded' && refused && (
          <Text color="fg.error" fontSize="sm" role="alert">
            {refused}
          </Text>
        )}
        <HStack>
          <Button type="submit" colorPalette="brand" loading={save.isPending} disabled={!serverFormChanged(form, settings.server)}>
            {texts.save}
          </Button>
        </HStack>
        {settings.restartRequired && (
          <Alert.Root status="info" alignItems={{ base: 'start', sm: 'center' }} flexWrap="wrap" gap="3" data-testid="restart-notice">
            <Alert.Indicator />
            <Alert.Content flex="1" minW="48">
              <Alert.Description>{texts.restartNotice}</Alert.Description>
            </Alert.Content>
            <Button size="sm" variant="outline" onClick={() => relaunch.mutate()} loading={relaunch.isPending}>
              <RotateCcw />
              {texts.restart}
            </Button>
          </Alert.Root>
        )}
      </Stack>
    </form>
  );
}

function ServerOption({ value, label, help }: { value: string; label: string; help: string }) {
  return (
    <RadioGroup.Item value={value} alignItems="start">
      <RadioGroup.ItemHiddenInput />
      <RadioGroup.ItemIndicator mt="0.5" />
      <Stack gap="0">
        <RadioGroup.ItemText fontWeight="medium">{label}</RadioGroup.ItemText>
        <Text fontSize="sm" color="fg.muted">
          {help}
        </Text>
      </Stack>
    </RadioGroup.Item>
  );
}
