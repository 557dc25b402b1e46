import { Alert, Button, Checkbox, Field, HStack, List, NativeSelect, Stack, Text } from '@chakra-ui/react';
import type { ScenarioProposal } from '@common/scenarios';
import { Sparkles } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { LoadMore } from '../../../ui/load-more';
import { PanelDialog } from '../../../ui/panel-dialog';
import { notify } from '../../../ui/toaster';
import { useProjects } from '../../projects';
import { describeActions, scenarioRoom, type ScenarioRoom } from '../scenario-format';
import { usePlanLimits } from '../../../api/use-plan-limits';
import { useCreateScenario } from '../hooks/use-create-scenario';
import { useGenerateScenarios } from '../hooks/use-generate-scenarios';
import { texts } from '../texts';
import { PlanLimitNotice } from '../../../ui/plan-limit';
import { plural } from '@common/plural';

/**
 * Generate New Test Scenario: pick a project, get proposals from its site (nothing saved yet), keep the ones
 * checked with 'Save selected'.
 */
export function GenerateScenariosDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const generate = useGenerateScenarios();
  const [checked, setChecked] = useState<Set<number>>(new Set());
  // How many more the plan has room for, read afresh when the dialog opens: the limit is said before it bites, and
  // no more proposals can be checked than will be saved.
  const limits = scenarioRoom(usePlanLimits({ fresh: true }).data);
  const close = () => {
    onOpenChange(false);
    generate.reset();
    setChecked(new Set());
  };
  return (
    <PanelDialog
      open={open}
      onClose={close}
      size="lg"
      title={texts.generate}
      description="Scenarios are proposed from the project's site as the scanner saw it. Nothing is saved until you choose."
    >
      {generate.data ? (
        <Proposals
          projectId={generate.variables ?? null}
          proposals={generate.data}
          checked={checked}
          limits={limits}
          onToggle={(index) =>
            setChecked((current) => {
              const next = new Set(current);
              if (!next.delete(index) && (limits.room === null || next.size < limits.room)) next.add(index);
              return next;
            })
          }
          onBack={() => {
            generate.reset();
            setChecked(new Set());
          }}
          onSaved={close}
        />
      ) : (
        <ProjectPicker
          generating={generate.isPending}
          error={generate.error?.message ?? null}
          onGenerate={(projectId) =>
            generate.mutate(projectId, {
              // Every proposal checked, as many as the plan has room for.
              onSuccess: (proposals) => setChecked(new Set(proposals.map((_, index) => index).slice(0, limits.room ?? undefined))),
            })
          }
        />
      )}
    </PanelDialog>
  );
}

function ProjectPicker({ generating, error, onGenerate }: { generating: boolean; error: string | null; onGenerate: (projectId: string) => void }) {
  const projects = useProjects();
  const [projectId, setProjectId] = useState('');
  const selected = projectId || projects.projects[0]?.id || '';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (selected) onGenerate(selected);
  };
  if (!projects.isLoading && projects.projects.length === 0 && !projects.isError) {
    return <Text color="fg.muted">Create a project first: scenarios are proposed from a project's website.</Text>;
  }
  return (
    <form onSubmit={submit}>
      <Stack gap="4">
        <Field.Root required disabled={projects.isLoading || generating}>
          <Field.Label>Project</Field.Label>
          <NativeSelect.Root>
            <NativeSelect.Field value={selected} onChange={(e) => setProjectId(e.currentTarget.value)} placeholder={projects.isLoading ? 'Loading projects...' : undefined}>
              {projects.projects.map((project) => (
                <option key={project.id} value={project.id}>
                  {project.instruction_text?.trim() || project.url} ({project.url})
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <LoadMore query={projects} label="Load more projects" testId="load-more-generate" />
        {error && (
          <Alert.Root status="error" data-testid="generate-error">
            <Alert.Indicator />
            <Alert.Title>{error}</Alert.Title>
          </Alert.Root>
        )}
        <HStack justify="flex-end">
          <Button type="submit" colorPalette="brand" loading={generating} loadingText="Generating..." disabled={!selected}>
            <Sparkles aria-hidden /> Generate
          </Button>
        </HStack>
      </Stack>
    </form>
  );
}

function Proposals({
  projectId,
  proposals,
  checked,
  limits,
  onToggle,
  onBack,
  onSaved,
}: {
  projectId: string | null;
  proposals: ScenarioProposal[];
  checked: Set<number>;
  limits: ScenarioRoom;
  onToggle: (index: number) => void;
  onBack: () => void;
  onSaved: () => void;
}) {
  const create = useCreateScenario();
  const [saving, setSaving] = useState(false);
  /** The plan has room for no more than are checked: the others wait greyed. */
  const full = limits.room !== null && checked.size >= limits.room;
  /** More proposals than fit: the limit is said with the upgrade beside it, not after a refused save. */
  const bites = limits.room !== null && proposals.length > limits.room;
  /** What Save saves: the checked ones, never more than fit (the plan may have been read after they were checked). */
  const selected = [...checked].sort((a, b) => a - b).slice(0, limits.room ?? undefined);
  const save = async () => {
    setSaving(true);
    let saved = 0;
    try {
      for (const index of selected) {
        const proposal = proposals[index];
        if (!proposal) continue;
        await create.mutateAsync({ project_id: projectId, website: proposal.website, actions: proposal.actions, summarized_actions: proposal.summarized_actions });
        saved++;
      }
      notify.success(`${plural(saved, 'test scenario')} saved`);
      onSaved();
    } catch (error) {
      notify.error('Failed to save test scenario', error instanceof Error ? error.message : undefined);
    } finally {
      setSaving(false);
    }
  };
  if (proposals.length === 0) {
    return (
      <Stack gap="4">
        <Text color="fg.muted">No scenario could be proposed for this project.</Text>
        <Button variant="outline" alignSelf="start" onClick={onBack}>
          Back
        </Button>
      </Stack>
    );
  }
  return (
    <Stack gap="4">
      {/* Above the list: how many fit is read before any is checked. */}
      {limits.text &&
        (bites ? (
          <PlanLimitNotice detail={limits.text} />
        ) : (
          <Text fontSize="sm" color="fg.muted" data-testid="scenario-room">
            {limits.text}
          </Text>
        ))}
      <Stack as="ul" gap="3" listStyleType="none" m="0" p="0" aria-label="Proposed scenarios">
        {proposals.map((proposal, index) => (
          <Stack as="li" key={index} gap="2" p="3" borderWidth="1px" borderRadius="l2" data-testid="proposal">
            <Checkbox.Root checked={checked.has(index)} onCheckedChange={() => onToggle(index)} disabled={saving || (!checked.has(index) && full)}>
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label fontWeight="medium" wordBreak="break-word">
                {proposal.summarized_actions}
              </Checkbox.Label>
            </Checkbox.Root>
            <List.Root as="ol" fontSize="sm" color="fg.muted" ps="8" gap="0.5">
              {describeActions(proposal.actions).map((step, stepIndex) => (
                <List.Item key={stepIndex} wordBreak="break-word">
                  {step}
                </List.Item>
              ))}
            </List.Root>
          </Stack>
        ))}
      </Stack>
      <PlanLimitNotice error={create.error} />
      <HStack justify="space-between" gap="2" wrap="wrap">
        <Button variant="outline" onClick={onBack} disabled={saving}>
          Back
        </Button>
        <Button colorPalette="brand" onClick={() => void save()} loading={saving} loadingText="Saving..." disabled={selected.length === 0}>
          Save selected ({selected.length})
        </Button>
      </HStack>
    </Stack>
  );
}
