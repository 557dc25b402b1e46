import { Box, Heading, Stack, Text } from '@chakra-ui/react';
import { useId, type ReactNode } from 'react';

/** The closing call to action of a marketing page: a brand-coloured panel with a title, a line and buttons. */
export function CtaBand({ title, children, actions }: { title: string; children: ReactNode; actions: ReactNode }) {
  const headingId = useId();
  return (
    <Box
      as="section"
      aria-labelledby={headingId}
      mt={{ base: '14', md: '20' }}
      px={{ base: '6', md: '12' }}
      py={{ base: '10', md: '14' }}
      borderRadius="2xl"
      bgGradient="to-br"
      gradientFrom="brand.700"
      gradientTo="brand.900"
      color="white"
      textAlign="center"
    >
      <Stack gap="4" align="center" maxW="2xl" mx="auto">
        <Heading as="h2" id={headingId} size={{ base: 'xl', md: '2xl' }} letterSpacing="tight">
          {title}
        </Heading>
        <Text color="brand.100" fontSize={{ base: 'md', md: 'lg' }}>
          {children}
        </Text>
        <Stack direction={{ base: 'column', sm: 'row' }} gap="3" mt="2" w={{ base: 'full', sm: 'auto' }}>
          {actions}
        </Stack>
      </Stack>
    </Box>
  );
}

/** A short label above a section heading ('For solo developers', 'Commissions'). */
export function Eyebrow({ children }: { children: ReactNode }) {
  return (
    <Text fontSize="sm" fontWeight="semibold" color="brand.fg" textTransform="uppercase" letterSpacing="wider">
      {children}
    </Text>
  );
}
