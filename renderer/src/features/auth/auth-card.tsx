import { Button, Card, Flex, Heading, HStack, Link, Separator, Text, type CardRootProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { GoogleIcon } from './google-icon';
import { texts } from './texts';

/** The centred card the sign-in, sign-up and reset screens share. */
export function AuthCard({
  title,
  description,
  footer,
  children,
  ...rest
}: { title: string; description: string; footer?: ReactNode; children: ReactNode } & Omit<CardRootProps, 'title'>) {
  return (
    <Flex minH="calc(100dvh - 4rem)" align={{ base: 'flex-start', sm: 'center' }} justify="center" px="4" py={{ base: '8', sm: '12' }} bg="bg.subtle">
      <Card.Root w="full" maxW="md" boxShadow="md" {...rest}>
        <Card.Header gap="1.5" textAlign="center">
          <Heading as="h1" size="2xl" letterSpacing="tight">
            {title}
          </Heading>
          <Text color="fg.muted" data-testid="auth-description">
            {description}
          </Text>
        </Card.Header>
        <Card.Body>{children}</Card.Body>
        {footer && (
          <Card.Footer justifyContent="center" fontSize="sm" color="fg.muted">
            {footer}
          </Card.Footer>
        )}
      </Card.Root>
    </Flex>
  );
}

/** 'Or continue with email' between the Google button and the form. */
export function OrDivider({ label }: { label: string }) {
  return (
    <HStack gap="3">
      <Separator flex="1" />
      <Text flexShrink="0" fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Separator flex="1" />
    </HStack>
  );
}

/** The card's footer line to the other page: 'Don't have an account? Sign up' or 'Already have an account? Log in'. */
export function AuthSwitch({ question, linkLabel, to }: { question: string; linkLabel: string; to: string }) {
  return (
    <Text>
      {question}{' '}
      <Link asChild colorPalette="brand" color="colorPalette.fg" fontWeight="medium">
        <RouterLink to={to}>{linkLabel}</RouterLink>
      </Link>
    </Text>
  );
}

/** 'Continue with Google' and the 'Or continue with email' divider above the email form. */
export function GoogleStart({ onClick, busy, blocked, loadingText }: { onClick: () => void; busy: boolean; blocked: boolean; loadingText?: string }) {
  return (
    <>
      <Button variant="outline" w="full" onClick={onClick} loading={busy} loadingText={loadingText} disabled={blocked}>
        <GoogleIcon />
        {texts.continueWithGoogle}
      </Button>
      <OrDivider label={texts.orContinueWithEmail} />
    </>
  );
}
