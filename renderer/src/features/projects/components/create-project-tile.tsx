import { Icon, Text, chakra } from '@chakra-ui/react';
import { Plus } from 'lucide-react';
import { texts } from '../texts';

/** The dashed 'Create New Project' tile after the project cards; with no project yet, it says what a project is. */
export function CreateProjectTile({ empty, onClick }: { empty: boolean; onClick: () => void }) {
  return (
    <chakra.button
      type="button"
      onClick={onClick}
      display="flex"
      flexDirection="column"
      alignItems="center"
      justifyContent="center"
      gap="2"
      minH="36"
      p="6"
      borderWidth="2px"
      borderStyle="dashed"
      borderColor="border.emphasized"
      borderRadius="l3"
      color="fg.muted"
      bg="transparent"
      cursor="pointer"
      transition="border-color 0.15s, color 0.15s, background 0.15s"
      _hover={{ borderColor: 'brand.solid', color: 'brand.fg', bg: 'brand.subtle' }}
      focusVisibleRing="outside"
      data-testid="create-project-tile"
    >
      <Icon boxSize="6" aria-hidden="true">
        <Plus />
      </Icon>
      <Text fontWeight="medium">{texts.createTile}</Text>
      {empty && (
        <Text fontSize="sm" textAlign="center">
          {texts.createTileEmpty}
        </Text>
      )}
    </chakra.button>
  );
}
