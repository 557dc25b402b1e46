import { Alert, Link } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { usePreferences } from '../../preferences';
import { texts } from '../texts';

/** Says so when the account's webhook notifications are off: events then reach no webhook, whatever is saved here. */
export function NotificationsOffNotice() {
  const preferences = usePreferences();
  if (!preferences.data || preferences.data.webhook_notifications) return null;
  return (
    <Alert.Root status="warning" data-testid="webhook-notifications-off">
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title>{texts.notificationsOffTitle}</Alert.Title>
        <Alert.Description>
          {texts.notificationsOff}{' '}
          <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="medium">
            <RouterLink to="/dashboard/preferences">{texts.notificationsOffLink}</RouterLink>
          </Link>
        </Alert.Description>
      </Alert.Content>
    </Alert.Root>
  );
}
