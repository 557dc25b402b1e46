import { Stack } from '@chakra-ui/react';
import { useHydrated } from '../../app/hydration';
import { useServices } from '../../app/services';
import { DesktopSettingsSection } from '../desktop-settings';
import { PageHeading } from '../../ui/page-heading';
import { AccountData } from './components/account-data';
import { NotificationSettings } from './components/notification-settings';
import { texts } from './texts';

/** /dashboard/preferences: notification toggles, the desktop app's settings (desktop only), the account's data. */
export function PreferencesPage() {
  const { bridge } = useServices();
  // The page is prerendered without a desktop bridge: the section joins after hydration so both renders match.
  const hydrated = useHydrated();
  const desktopSettings = hydrated && bridge.kind === 'desktop' ? bridge.desktopSettings : null;
  return (
    <Stack gap="6">
      <PageHeading title={texts.title} subtitle={texts.subtitle} />
      <NotificationSettings />
      {desktopSettings && <DesktopSettingsSection api={desktopSettings} />}
      <AccountData />
    </Stack>
  );
}
