import { Alert, Button, Card, Grid, Heading, Text } from '@chakra-ui/react';
import { LifeBuoy } from 'lucide-react';
import { Link as RouterLink } from 'react-router-dom';
import { texts } from '../texts';

/** 'Need Help?' with Contact Support (the Support page), and the 'About Plan Changes' note. */
export function HelpCards() {
  return (
    <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: 'repeat(2, minmax(0, 1fr))' }} gap="6" alignItems="stretch">
      <Card.Root variant="outline">
        <Card.Body gap="3" alignItems="start">
          <Heading as="h2" size="md">
            {texts.helpTitle}
          </Heading>
          <Text color="fg.muted">{texts.helpBody}</Text>
          <Button asChild variant="outline" colorPalette="brand">
            <RouterLink to="/dashboard/support">
              <LifeBuoy aria-hidden /> {texts.contactSupport}
            </RouterLink>
          </Button>
        </Card.Body>
      </Card.Root>
      <Alert.Root status="info" variant="subtle" borderRadius="l3" alignItems="start" data-testid="billing-about">
        <Alert.Indicator />
        <Alert.Content gap="1">
          <Alert.Title asChild>
            <Heading as="h2" size="sm">
              {texts.aboutTitle}
            </Heading>
          </Alert.Title>
          <Alert.Description>{texts.aboutBody}</Alert.Description>
        </Alert.Content>
      </Alert.Root>
    </Grid>
  );
}
