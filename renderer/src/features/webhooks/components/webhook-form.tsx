import { Alert, Button, Field, Flex, Input } from '@chakra-ui/react';
import type { CreatedWebhook } from '@common/webhooks';
import { Save, Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useAuth } from '../../../app/auth-context';
import { notify } from '../../../ui/toaster';
import { useSaveWebhook } from '../hooks/use-save-webhook';
import { useTestWebhook } from '../hooks/use-test-webhook';
import { FormCard } from '../../../ui/form-card';
import { texts } from '../texts';
import { testUrlError, webhookUrlError, type TestOutcome } from '../webhook-format';

/** The config form: a URL, Save (answers the signing secret once) and Test (a signed test event, its result shown). */
export function WebhookForm({ onSaved }: { onSaved: (webhook: CreatedWebhook) => void }) {
  const { user } = useAuth();
  const save = useSaveWebhook();
  const test = useTestWebhook();
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<TestOutcome>({ state: 'idle' });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = webhookUrlError(url);
    setError(problem);
    if (problem) return;
    if (!user) {
      notify.error(texts.loginRequired);
      return;
    }
    save.mutate(url.trim(), {
      onSuccess: (webhook) => {
        setUrl('');
        setOutcome({ state: 'idle' });
        onSaved(webhook);
      },
    });
  };
  const runTest = () => {
    const problem = testUrlError(url);
    setError(problem);
    if (problem) return;
    setOutcome({ state: 'idle' });
    test.mutate(url.trim(), { onSuccess: setOutcome });
  };

  return (
    <FormCard title={texts.configTitle} onSubmit={submit}>
      <Flex gap="3" direction={{ base: 'column', md: 'row' }} align={{ md: 'start' }}>
        <Field.Root invalid={error !== null} flex="1">
          <Field.Label>{texts.urlLabel}</Field.Label>
          <Input
            type="url"
            inputMode="url"
            name="webhook-url"
            value={url}
            onChange={(e) => {
              setUrl(e.target.value);
              setError(null);
            }}
            placeholder={texts.urlPlaceholder}
          />
          <Field.ErrorText data-testid="webhook-url-error">{error}</Field.ErrorText>
        </Field.Root>
        <Flex gap="2" mt={{ md: '6' }}>
          <Button type="submit" colorPalette="brand" loading={save.isPending} loadingText={texts.save} flex={{ base: '1', md: 'initial' }}>
            <Save aria-hidden /> {texts.save}
          </Button>
          <Button variant="outline" onClick={runTest} loading={test.isPending} loadingText={texts.test} flex={{ base: '1', md: 'initial' }}>
            <Send aria-hidden /> {texts.test}
          </Button>
        </Flex>
      </Flex>
      <TestResult outcome={outcome} />
    </FormCard>
  );
}

/**
 * The test result: nothing while idle, the status code on success, 'Verification failed' and the code, or 'Webhook
 * test failed' with the reason below it.
 */
function TestResult({ outcome }: { outcome: TestOutcome }) {
  if (outcome.state === 'idle') return null;
  return (
    <Alert.Root status={outcome.state === 'success' ? 'success' : 'error'} role="status" data-testid="webhook-test-result" data-state={outcome.state}>
      <Alert.Indicator />
      <Alert.Content>
        <Alert.Title data-testid="webhook-test-title">{outcome.state === 'success' ? texts.testSuccess : outcome.message}</Alert.Title>
        {outcome.state === 'error' && outcome.reason && (
          <Alert.Description data-testid="webhook-test-reason" wordBreak="break-word">
            {outcome.reason}
          </Alert.Description>
        )}
        {outcome.statusCode !== null && (
          <Alert.Description>
            {texts.statusCode}: <span data-testid="webhook-test-code">{outcome.statusCode}</span>
          </Alert.Description>
        )}
      </Alert.Content>
    </Alert.Root>
  );
}
