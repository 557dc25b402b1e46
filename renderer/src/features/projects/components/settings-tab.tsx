import { Button, Card, Checkbox, Field, HStack, Input, NativeSelect, SimpleGrid, Stack, Textarea } from '@chakra-ui/react';
import { PROJECT_LIMITS, PROJECT_STATUSES, toPageCount, updateProjectBodySchema, type Project, type UpdateProjectBody } from '@common/projects';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useUpdateProject } from '../hooks/use-update-project';
import { afterSave, settingsValuesOf as valuesOf, type SettingsValues } from '../settings-values';
import { texts } from '../texts';

type Errors = Partial<Record<keyof SettingsValues, string>>;
type TextField = Exclude<keyof SettingsValues, 'active_mode'>;

const STATUS_LABELS: Record<string, string> = { active: 'Active', completed: 'Completed', archived: 'Archived' };

interface SettingsTabProps {
  project: Project;
  /** Project Name takes the focus each time this grows (the page's Edit button). */
  focusRequests?: number;
}

/**
 * 'Project Settings'. The project has one text, instruction_text, that is both its name and its test
 * instructions (spec section 3), so Project Name and Test Instructions edit the same value.
 */
export function SettingsTab({ project, focusRequests = 0 }: SettingsTabProps) {
  const [values, setValues] = useState<SettingsValues>(() => valuesOf(project));
  const [errors, setErrors] = useState<Errors>({});
  const [showSecret, setShowSecret] = useState(false);
  const update = useUpdateProject(project.id);
  const nameInput = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (focusRequests > 0) nameInput.current?.focus();
  }, [focusRequests]);

  const set = (name: TextField) => (e: { target: { value: string } }) => {
    setValues((v) => ({ ...v, [name]: e.target.value }));
    if (errors[name]) setErrors((current) => ({ ...current, [name]: undefined }));
  };

  function reset() {
    setValues(valuesOf(project));
    setErrors({});
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body: UpdateProjectBody = {
      instruction_text: values.instruction_text.trim() ? values.instruction_text : null,
      secret_instruction: values.secret_instruction ? values.secret_instruction : null,
      status: values.status,
      url: values.url,
      // A non-number becomes 1 (spec section 5).
      num_pages: toPageCount(values.num_pages),
      // Sent only when the server told the project's mode (GET /project/{id}), so an unknown mode is never switched off.
      ...(project.active_mode === undefined ? {} : { active_mode: values.active_mode }),
    };
    const parsed = updateProjectBodySchema.safeParse(body);
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as keyof SettingsValues;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    const sent = values;
    update.mutate(parsed.data, {
      // A field changed while the save was on its way keeps the change (it is saved with the next Save Changes).
      onSuccess: (saved) => setValues((current) => afterSave(current, sent, saved)),
    });
  }

  const statuses: string[] = [...PROJECT_STATUSES];
  // A status set elsewhere (any string is allowed) stays selectable instead of silently changing.
  if (!statuses.includes(project.status)) statuses.push(project.status);

  return (
    <Card.Root as="section" aria-labelledby="project-settings-title">
      <Card.Header>
        <Card.Title as="h2" id="project-settings-title">
          Project Settings
        </Card.Title>
      </Card.Header>
      <Card.Body>
        <form onSubmit={handleSubmit} noValidate aria-label="Project Settings">
          <Stack gap="5">
            <Field.Root invalid={Boolean(errors.instruction_text)}>
              <Field.Label>Project Name</Field.Label>
              <Input ref={nameInput} name="name" value={values.instruction_text} onChange={set('instruction_text')} autoComplete="off" />
              <Field.HelperText>The project is listed under its test instructions.</Field.HelperText>
            </Field.Root>
            <Field.Root invalid={Boolean(errors.instruction_text)}>
              <Field.Label>Test Instructions</Field.Label>
              <Textarea name="instruction_text" value={values.instruction_text} onChange={set('instruction_text')} rows={4} />
              {errors.instruction_text ? (
                <Field.ErrorText>{errors.instruction_text}</Field.ErrorText>
              ) : (
                <Field.HelperText>
                  {values.instruction_text.length}/{PROJECT_LIMITS.instructions}
                </Field.HelperText>
              )}
            </Field.Root>
            <Field.Root invalid={Boolean(errors.secret_instruction)}>
              <HStack justify="space-between" w="full">
                <Field.Label>Credentials</Field.Label>
                <Button type="button" size="xs" variant="ghost" aria-pressed={showSecret} onClick={() => setShowSecret((shown) => !shown)}>
                  {showSecret ? 'Hide' : 'Show'}
                </Button>
              </HStack>
              {/* Two accounts take two lines: a textarea, masked as a password field is while hidden. */}
              <Textarea
                name="secret_instruction"
                value={values.secret_instruction}
                onChange={set('secret_instruction')}
                autoComplete="off"
                spellCheck={false}
                rows={2}
                data-masked={showSecret ? undefined : 'true'}
                css={showSecret ? undefined : { WebkitTextSecurity: 'disc' }}
                placeholder="No credentials provided"
              />
              <Field.HelperText>One or two test accounts, one per line: email password (or email / password).</Field.HelperText>
              {errors.secret_instruction && <Field.ErrorText>{errors.secret_instruction}</Field.ErrorText>}
            </Field.Root>
            <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
              <Field.Root invalid={Boolean(errors.status)}>
                <Field.Label>Project Status</Field.Label>
                <NativeSelect.Root>
                  <NativeSelect.Field name="status" value={values.status} onChange={set('status')}>
                    {statuses.map((status) => (
                      <option key={status} value={status}>
                        {STATUS_LABELS[status] ?? status}
                      </option>
                    ))}
                  </NativeSelect.Field>
                  <NativeSelect.Indicator />
                </NativeSelect.Root>
                {errors.status && <Field.ErrorText>{errors.status}</Field.ErrorText>}
              </Field.Root>
              <Field.Root invalid={Boolean(errors.num_pages)}>
                <Field.Label>Number of Pages</Field.Label>
                <Input name="num_pages" type="number" inputMode="numeric" min={1} max={PROJECT_LIMITS.maxPages} step={1} value={values.num_pages} onChange={set('num_pages')} />
                {errors.num_pages ? <Field.ErrorText>{errors.num_pages}</Field.ErrorText> : <Field.HelperText>How many pages a scan visits (at least 1).</Field.HelperText>}
              </Field.Root>
            </SimpleGrid>
            <Field.Root invalid={Boolean(errors.url)}>
              <Field.Label>Website URL</Field.Label>
              <Input name="url" type="url" value={values.url} onChange={set('url')} autoComplete="url" />
              {errors.url && <Field.ErrorText>{errors.url}</Field.ErrorText>}
            </Field.Root>
            <Field.Root>
              <Checkbox.Root
                name="active_mode"
                checked={values.active_mode}
                disabled={project.active_mode === undefined}
                onCheckedChange={(change) => setValues((v) => ({ ...v, active_mode: change.checked === true }))}
              >
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{texts.activeModeLabel}</Checkbox.Label>
              </Checkbox.Root>
              <Field.HelperText>{texts.activeModeHelp}</Field.HelperText>
            </Field.Root>
            <HStack justify="flex-end" gap="3">
              <Button type="button" variant="outline" onClick={reset} disabled={update.isPending}>
                Cancel
              </Button>
              <Button type="submit" colorPalette="brand" loading={update.isPending} loadingText="Saving...">
                Save Changes
              </Button>
            </HStack>
          </Stack>
        </form>
      </Card.Body>
    </Card.Root>
  );
}
