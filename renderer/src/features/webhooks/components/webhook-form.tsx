import { Alert, Button, Field, Flex, Input } from '@chakra-ui/react';
import { suggestedWebhookFormat, type CreatedWebhook, type WebhookFormat } from '@common/webhooks';
import { Save, Send } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useAuth } from '../../../app/auth-context';
import { notify } from '../../../ui/toaster';
import { useSaveWebhook } from '../hooks/use-save-webhook';
import { useTestWebhook } from '../hooks/use-test-webhook';
import { FormCard } from '../../../ui/form-card';
import { FORMAT_HINTS, texts } from '../texts';
import { FormatSelect } from './format-select';
import { testUrlError, webhookUrlError, type TestOutcome } from '../webhook-format';

/**
 * The config form: a URL, its format (chosen from the URL until the user picks one), Save (answers the signing
 * secret once) and Test (a test event in the chosen format, its result shown).
 */
export function WebhookForm({ onSaved }: { onSaved: (webhook: CreatedWebhook) => void }) {
  const { user } = useAuth();
  const save = useSaveWebhook();
  const test = useTestWebhook();
  const [url, setUrl] = useState('');
  const [format, setFormat] = useState<WebhookFormat>('standard');
  // Once the user picks a format, the URL no longer changes it.
  const [picked, setPicked] = useState(false);
  const suggested = picked ? null : suggestedWebhookFormat(url);
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
    save.mutate(
      { url: url.trim(), format },
      {
        onSuccess: (webhook) => {
          setUrl('');
          setFormat('standard');
          setPicked(false);
          setOutcome({ state: 'idle' });
          onSaved(webhook);
        },
      },
    );
  };
  const runTest = () => {
    const problem = testUrlError(url);
    setError(problem);
    if (problem) return;
    setOutcome({ state: 'idle' });
    test.mutate({ url: url.trim(), format }, { onSuccess: setOutcome });
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
              const fromUrl = picked ? null : suggestedWebhookFormat(e.target.value);
              if (fromUrl) setFormat(fromUrl);
            }}
            placeholder={texts.urlPlaceholder}
          />
          <Field.ErrorText data-testid="webhook-url-error">{error}</Field.ErrorText>
        </Field.Root>
        <Field.Root w={{ base: 'full', md: '56' }} flexShrink={0}>
          <Field.Label>{texts.formatLabel}</Field.Label>
          <FormatSelect
            name="webhook-format"
            value={format}
            onChange={(chosen) => {
              setFormat(chosen);
              setPicked(true);
            }}
          />
          <Field.HelperText data-testid="webhook-format-hint">
            {suggested === format ? `${texts.formatSuggested}. ` : ''}
            {FORMAT_HINTS[format]}
          </Field.HelperText>
        </Field.Root>
      </Flex>
      <Flex gap="2">
        <Button type="submit" colorPalette="brand" loading={save.isPending} loadingText={texts.save} flex={{ base: '1', md: 'initial' }}>
          <Save aria-hidden /> {texts.save}
        </Button>
        <Button variant="outline" onClick={runTest} loading={test.isPending} loadingText={texts.test} flex={{ base: '1', md: 'initial' }}>
          <Send aria-hidden /> {texts.test}
        </Button>
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
