import { Card, Heading, Stack } from '@chakra-ui/react';
import type { FormEvent, ReactNode } from 'react';

/** A form in an outlined card under its h2 title (validated by the app, not the browser). */
export function FormCard({ title, onSubmit, children }: { title: string; onSubmit: (event: FormEvent<HTMLFormElement>) => void; children: ReactNode }) {
  return (
    <Card.Root variant="outline">
      <Card.Body>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="3">
            <Heading as="h2" size="md">
              {title}
            </Heading>
            {children}
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
