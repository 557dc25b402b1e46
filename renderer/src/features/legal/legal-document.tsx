import { Box, Container, Grid, Heading, Stack, Text } from '@chakra-ui/react';
import { Fragment, type ReactNode } from 'react';
import { JumpLink } from '../../ui/jump-link';
import { PageHeading } from '../../ui/page-heading';
import { Prose } from '../../ui/prose';

/** Both legal documents took effect on the same day. */
export const EFFECTIVE_DATE = { label: 'April 21, 2025', iso: '2025-04-21' } as const;

export interface LegalSection {
  /** The anchor (#acceptable-use); also what the table of contents links to. */
  id: string;
  title: string;
  body: ReactNode;
}

/** A legal page: title, effective date, a short summary, a table of contents, then numbered sections. */
export function LegalDocument({ title, intro, summary, sections }: { title: string; intro: ReactNode; summary?: ReactNode; sections: LegalSection[] }) {
  return (
    <Container maxW="6xl" px={{ base: '4', md: '6' }} py={{ base: '10', md: '16' }}>
      <PageHeading title={title} />
      <Text color="fg.muted" mt="-4" mb="8">
        Effective <time dateTime={EFFECTIVE_DATE.iso}>{EFFECTIVE_DATE.label}</time>
      </Text>
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: '15rem minmax(0, 1fr)' }} gap={{ base: '8', lg: '14' }} alignItems="start">
        <Box as="nav" aria-labelledby="legal-contents" position={{ lg: 'sticky' }} top={{ lg: '24' }} borderWidth="1px" borderRadius="xl" p="5" bg="bg.subtle">
          <Heading as="h2" id="legal-contents" fontSize="sm" fontWeight="semibold" textTransform="uppercase" letterSpacing="wider" color="fg.muted" mb="3">
            Contents
          </Heading>
          <Stack as="ol" gap="1.5" fontSize="sm" listStyleType="none">
            {sections.map((section, index) => (
              <li key={section.id}>
                <JumpLink to={section.id} color="fg.muted" _hover={{ color: 'brand.fg' }}>
                  {index + 1}. {section.title}
                </JumpLink>
              </li>
            ))}
          </Stack>
        </Box>
        <Stack gap="0" minW="0">
          <Text fontSize={{ base: 'md', md: 'lg' }} color="fg.muted" maxW="70ch" lineHeight="1.7">
            {intro}
          </Text>
          {summary && (
            <Box mt="6" p={{ base: '5', md: '6' }} borderRadius="xl" bg="brand.subtle" borderWidth="1px" borderColor="brand.muted" maxW="70ch">
              {summary}
            </Box>
          )}
          <Prose>
            {sections.map((section, index) => (
              // No wrapper element: Prose spaces its direct children, so the heading and the body's
              // paragraphs must stay siblings.
              <Fragment key={section.id}>
                <h2 id={section.id} tabIndex={-1}>
                  {index + 1}. {section.title}
                </h2>
                {section.body}
              </Fragment>
            ))}
          </Prose>
        </Stack>
      </Grid>
    </Container>
  );
}
