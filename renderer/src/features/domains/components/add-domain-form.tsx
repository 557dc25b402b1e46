import { Button, Field, Flex, Input, Text } from '@chakra-ui/react';
import { domainBodySchema } from '@common/domains';
import { Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { FormCard } from '../../../ui/form-card';
import { useAddDomain } from '../hooks/use-add-domain';
import { texts } from '../texts';

/** A domain name and Add; the name is checked with the server's own schema before it is sent. */
export function AddDomainForm() {
  const add = useAddDomain();
  const [domain, setDomain] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = domainBodySchema.safeParse({ domain });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? texts.invalid);
      return;
    }
    setError(null);
    add.mutate(parsed.data.domain, { onSuccess: () => setDomain('') });
  };
  return (
    <FormCard title={texts.title} onSubmit={submit}>
      <Text fontSize="sm" color="fg.muted">
        {texts.intro}
      </Text>
      <Flex gap="3" direction={{ base: 'column', md: 'row' }} align={{ md: 'start' }}>
        <Field.Root invalid={error !== null} flex="1">
          <Field.Label>{texts.domainLabel}</Field.Label>
          <Input
            name="domain"
            value={domain}
            autoComplete="off"
            spellCheck={false}
            onChange={(e) => {
              setDomain(e.target.value);
              setError(null);
            }}
            placeholder={texts.domainPlaceholder}
          />
          <Field.ErrorText data-testid="domain-error">{error}</Field.ErrorText>
        </Field.Root>
        <Button type="submit" colorPalette="brand" mt={{ md: '6' }} loading={add.isPending} loadingText={texts.add}>
          <Plus aria-hidden /> {texts.add}
        </Button>
      </Flex>
    </FormCard>
  );
}
