import { Stack } from '@chakra-ui/react';
import { useHydrated } from '../../app/hydration';
import { useServices } from '../../app/services';
import { DesktopSettingsSection } from '../desktop-settings/desktop-settings-section';
import { PageHeading } from '../../ui/page-heading';

/** /dashboard/preferences */
export function PreferencesPage() {
  const { bridge } = useServices();
  // The page is prerendered without a desktop bridge: the section joins after hydration so both renders match.
  const hydrated = useHydrated();
  const desktopSettings = hydrated && bridge.kind === 'desktop' ? bridge.desktopSettings : null;
  return (
    <Stack gap="6">
      <PageHeading title="Preferences" />
      {desktopSettings && <DesktopSettingsSection api={desktopSettings} />}
    </Stack>
  );
}
