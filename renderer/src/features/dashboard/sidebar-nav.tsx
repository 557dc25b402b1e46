import { chakra, Icon, Stack, Text, type HTMLChakraProps } from '@chakra-ui/react';
import { useId } from 'react';
import { NavLink } from 'react-router-dom';
import { navGroups, type NavItem } from './nav-items';

const itemStyles: HTMLChakraProps<'a'> = {
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  px: '3',
  py: '2',
  borderRadius: 'l2',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  textDecoration: 'none',
  transition: 'background 0.15s, color 0.15s',
};

const StyledNavLink = chakra(NavLink);

function NavEntry({ item, onNavigate }: { item: NavItem; onNavigate?: () => void }) {
  const icon = (
    <Icon boxSize="4" aria-hidden="true">
      <item.icon />
    </Icon>
  );
  return (
    <StyledNavLink
      to={item.to}
      onClick={onNavigate}
      data-testid={`nav-${item.to.split('/').pop() ?? ''}`}
      {...itemStyles}
      _hover={{ bg: 'bg.muted', color: 'fg' }}
      _currentPage={{ bg: 'brand.subtle', color: 'brand.fg', fontWeight: 'semibold' }}
      focusVisibleRing="outside"
    >
      {icon}
      {item.label}
    </StyledNavLink>
  );
}

/** The dashboard's navigation: used in the sidebar and in the small-screen 'Menu' drawer. */
export function SidebarNav({ onNavigate }: { onNavigate?: () => void }) {
  const id = useId();
  return (
    <Stack as="nav" aria-label="Dashboard" gap="6">
      {navGroups.map((group, index) => (
        <Stack key={group.label} role="group" aria-labelledby={`${id}-${index}`} gap="1">
          <Text id={`${id}-${index}`} px="3" pb="1" fontSize="xs" fontWeight="semibold" color="fg.muted">
            {group.label}
          </Text>
          {group.items.map((item) => (
            <NavEntry key={item.to} item={item} onNavigate={onNavigate} />
          ))}
        </Stack>
      ))}
    </Stack>
  );
}
