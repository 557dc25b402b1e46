import { Button, Field, Input } from '@chakra-ui/react';
import { WORKSPACE_NAME_MAX, workspaceNameSchema } from '@common/workspaces';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../api/http';
import { useCreateWorkspace } from '../hooks/use-create-workspace';
import { texts } from '../texts';
import { useCurrentWorkspace } from '../workspace-context';
import { AppDialog } from '../../../ui/app-dialog';

/**
 * 'Create workspace': its name (checked as the server checks it; the server's 400 shown under the field), then work
 * in it, on its projects screen, or on `landOn` (the Members page stays on Members: a workspace made there is made
 * to invite colleagues).
 */
export function CreateWorkspaceDialog({ open, onOpenChange, landOn }: { open: boolean; onOpenChange: (open: boolean) => void; landOn?: string }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateWorkspace();
  const { switchTo } = useCurrentWorkspace();

  function close() {
    onOpenChange(false);
    create.reset();
    setName('');
    setError(null);
  }

  function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = workspaceNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? texts.nameRequired);
      return;
    }
    setError(null);
    create.mutate(
      { name: parsed.data },
      {
        onSuccess: (workspace) => {
          close();
          void switchTo(workspace.id, landOn);
        },
      },
    );
  }

  // The server's refusal of the name (400) belongs under the field; anything else under it too, as the reason.
  const serverError = create.error instanceof ApiError ? create.error.message : create.error ? texts.createFailed : null;
  const shown = error ?? serverError;

  return (
    <AppDialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      closeOnInteractOutside={!create.isPending}
      form={{ onSubmit: handleSubmit, label: texts.createWorkspace }}
      testId="create-workspace-dialog"
      title={texts.createWorkspace}
      footer={
        <>
          <Button variant="outline" onClick={close} disabled={create.isPending}>
            {texts.cancel}
          </Button>
          <Button type="submit" colorPalette="brand" loading={create.isPending} loadingText={texts.creating}>
            {texts.create}
          </Button>
        </>
      }
    >
      <Field.Root invalid={Boolean(shown)} required>
        <Field.Label>
          {texts.nameLabel}
          <Field.RequiredIndicator />
        </Field.Label>
        <Input
          name="name"
          value={name}
          placeholder={texts.namePlaceholder}
          autoComplete="off"
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
            if (create.error) create.reset();
          }}
        />
        {shown ? (
          <Field.ErrorText>{shown}</Field.ErrorText>
        ) : (
          <Field.HelperText>
            {name.length}/{WORKSPACE_NAME_MAX}
          </Field.HelperText>
        )}
      </Field.Root>
    </AppDialog>
  );
}
