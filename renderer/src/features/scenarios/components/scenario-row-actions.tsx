import { Button, HStack, IconButton, Menu, Portal } from '@chakra-ui/react';
import type { ScenarioView } from '@common/scenarios';
import { Code, Eye, MoreHorizontal, Play, Trash2 } from 'lucide-react';

export type RowAction = 'details' | 'code' | 'delete';

/** A row's Run button and its menu: View Details, View Code, Delete. */
export function ScenarioRowActions({
  view,
  runDisabled,
  running,
  onRun,
  onAction,
}: {
  view: ScenarioView;
  runDisabled: boolean;
  running: boolean;
  onRun: () => void;
  onAction: (action: RowAction) => void;
}) {
  return (
    <HStack gap="1" justify="flex-end">
      <Button size="xs" variant="outline" onClick={onRun} disabled={runDisabled} loading={running} aria-label={`Run ${view.name}`}>
        <Play aria-hidden /> Run
      </Button>
      <Menu.Root onSelect={(details) => onAction(details.value as RowAction)} positioning={{ placement: 'bottom-end' }}>
        <Menu.Trigger asChild>
          <IconButton size="xs" variant="ghost" aria-label={`More actions for ${view.name}`}>
            <MoreHorizontal />
          </IconButton>
        </Menu.Trigger>
        <Portal>
          <Menu.Positioner>
            <Menu.Content minW="44">
              <Menu.Item value="details">
                <Eye aria-hidden /> View Details
              </Menu.Item>
              <Menu.Item value="code">
                <Code aria-hidden /> View Code
              </Menu.Item>
              <Menu.Separator />
              <Menu.Item value="delete" color="fg.error" _hover={{ bg: 'bg.error', color: 'fg.error' }}>
                <Trash2 aria-hidden /> Delete
              </Menu.Item>
            </Menu.Content>
          </Menu.Positioner>
        </Portal>
      </Menu.Root>
    </HStack>
  );
}
