import { Card, Flex, Heading, HStack, Separator, Text, type CardRootProps } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** The centred card the sign-in, sign-up and reset screens share. */
export function AuthCard({
  title,
  description,
  footer,
  children,
  ...rest
}: { title: string; description: string; footer?: ReactNode; children: ReactNode } & Omit<CardRootProps, 'title'>) {
  return (
    <Flex
      minH="calc(100dvh - 4rem)"
      align={{ base: 'flex-start', sm: 'center' }}
      justify="center"
      px="4"
      py={{ base: '8', sm: '12' }}
      bg="bg.subtle"
    >
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
