import { Button, Field, Flex, Input } from '@chakra-ui/react';
import { workspaceNameSchema, type Workspace } from '@common/workspaces';
import { useState, type FormEvent } from 'react';
import { ApiError } from '../../../api/http';
import { FormCard } from '../../../ui/form-card';
import { useRenameWorkspace } from '../hooks/use-rename-workspace';
import { texts } from '../texts';

/** The owner renames the workspace; the name is checked as the server checks it, and its 400 shown under the field. */
export function RenameForm({ workspace }: { workspace: Workspace }) {
  const rename = useRenameWorkspace(workspace.id);
  const [name, setName] = useState(workspace.name);
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = workspaceNameSchema.safeParse(name);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? texts.nameRequired);
      return;
    }
    setError(null);
    rename.mutate({ name: parsed.data });
  }

  const shown = error ?? (rename.error instanceof ApiError ? rename.error.message : rename.error ? texts.renameFailed : null);
  return (
    <FormCard title={texts.renameTitle} onSubmit={submit}>
      <Flex gap="3" direction={{ base: 'column', sm: 'row' }} align={{ sm: 'start' }}>
        <Field.Root flex="1" invalid={Boolean(shown)}>
          <Field.Label srOnly>{texts.nameLabel}</Field.Label>
          <Input
            name="workspace-name"
            autoComplete="off"
            value={name}
            onChange={(e) => {
              setName(e.target.value);
              setError(null);
              if (rename.error) rename.reset();
            }}
          />
          {shown && <Field.ErrorText>{shown}</Field.ErrorText>}
        </Field.Root>
        <Button type="submit" variant="outline" loading={rename.isPending} loadingText={texts.renaming} disabled={name.trim() === workspace.name}>
          {texts.rename}
        </Button>
      </Flex>
    </FormCard>
  );
}
