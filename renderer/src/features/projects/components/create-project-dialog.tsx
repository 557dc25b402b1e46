import { Button, Field, Input, Stack, Textarea } from '@chakra-ui/react';
import { PROJECT_LIMITS, createProjectFormSchema, type CreateProjectForm } from '@common/projects';
import { useState, type FormEvent } from 'react';
import { useCreateProject } from '../hooks/use-create-project';
import { PlanLimitNotice } from '../../../ui/plan-limit';
import { AppDialog } from '../../../ui/app-dialog';

type FieldName = keyof CreateProjectForm;
type Values = Record<FieldName, string>;

const EMPTY: Values = { name: '', description: '', url: '', instruction_text: '', secret_instruction: '' };

interface FieldSpec {
  name: FieldName;
  label: string;
  limit?: number;
  multiline?: boolean;
  required?: boolean;
  placeholder?: string;
  helper?: string;
}

const FIELDS: FieldSpec[] = [
  { name: 'name', label: 'Project Name', limit: PROJECT_LIMITS.name, required: true, placeholder: 'My web app' },
  { name: 'description', label: 'Description', limit: PROJECT_LIMITS.description, multiline: true },
  { name: 'url', label: 'Website URL', required: true, placeholder: 'https://example.com' },
  {
    name: 'instruction_text',
    label: 'Test Instructions',
    limit: PROJECT_LIMITS.instructions,
    multiline: true,
    helper: 'What to test. Left empty, the project name is used.',
  },
  {
    name: 'secret_instruction',
    label: 'Credentials / Test User Details',
    limit: PROJECT_LIMITS.secretInstructions,
    multiline: true,
    helper: 'One or two test accounts the scanner signs in as, one per line: email password (or email / password). Stored sealed; shown masked.',
  },
];

/** 'Create New Project': the spec's five fields, each with its zod message under it. */
export function CreateProjectDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [values, setValues] = useState<Values>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const create = useCreateProject();

  function close() {
    onOpenChange(false);
    create.reset();
    setValues(EMPTY);
    setErrors({});
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = createProjectFormSchema.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as FieldName;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    create.mutate(values, { onSuccess: close });
  }

  return (
    <AppDialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      size={{ base: 'full', sm: 'lg' }}
      placement="top"
      scrollBehavior="inside"
      closeOnInteractOutside={!create.isPending}
      form={{ onSubmit: handleSubmit, label: 'Create New Project' }}
      title="Create New Project"
      footer={
        <>
          <Button variant="outline" onClick={close} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" colorPalette="brand" loading={create.isPending} loadingText="Creating...">
            Create Project
          </Button>
        </>
      }
    >
      <Stack gap="4">
        {FIELDS.map((spec) => {
          const value = values[spec.name];
          const error = errors[spec.name];
          const props = {
            name: spec.name,
            value,
            placeholder: spec.placeholder,
            onChange: (e: { target: { value: string } }) => {
              setValues((v) => ({ ...v, [spec.name]: e.target.value }));
              if (error) setErrors((current) => ({ ...current, [spec.name]: undefined }));
            },
          };
          return (
            <Field.Root key={spec.name} invalid={Boolean(error)} required={spec.required}>
              <Field.Label>
                {spec.label}
                <Field.RequiredIndicator />
              </Field.Label>
              {spec.multiline ? (
                <Textarea {...props} rows={spec.name === 'description' ? 2 : 3} autoresize maxH="40" />
              ) : (
                <Input {...props} type={spec.name === 'url' ? 'url' : 'text'} autoComplete="off" />
              )}
              {error ? (
                <Field.ErrorText>{error}</Field.ErrorText>
              ) : (
                (spec.helper || spec.limit) && (
                  <Field.HelperText display="flex" justifyContent="space-between" gap="3" w="full">
                    <span>{spec.helper}</span>
                    {spec.limit && (
                      <span aria-hidden="true">
                        {value.length}/{spec.limit}
                      </span>
                    )}
                  </Field.HelperText>
                )
              )}
            </Field.Root>
          );
        })}
        <PlanLimitNotice error={create.error} />
      </Stack>
    </AppDialog>
  );
}
