import { Activity, Bot, CreditCard, FileText, FolderKanban, KeyRound, LifeBuoy, RefreshCw, SlidersHorizontal, Users, Webhook, type LucideIcon } from 'lucide-react';

export interface NavItem {
  label: string;
  to: string;
  icon: LucideIcon;
}

export interface NavGroup {
  label: string;
  items: NavItem[];
}

/** The dashboard sidebar, in the spec's order. */
export const navGroups: NavGroup[] = [
  {
    label: 'Main',
    items: [
      { label: 'Project List', to: '/dashboard/projects', icon: FolderKanban },
      { label: 'AI Browser', to: '/dashboard/scans', icon: Bot },
      { label: 'Reports', to: '/dashboard/reports', icon: FileText },
      { label: 'Events', to: '/dashboard/events', icon: Activity },
    ],
  },
  {
    label: 'Settings',
    items: [
      { label: 'Preferences', to: '/dashboard/preferences', icon: SlidersHorizontal },
      { label: 'Members', to: '/dashboard/members', icon: Users },
      { label: 'Plan (Stripe)', to: '/dashboard/billing', icon: CreditCard },
      { label: 'API', to: '/dashboard/api', icon: KeyRound },
      { label: 'Webhook', to: '/dashboard/webhook', icon: Webhook },
      { label: 'Continuous Testing', to: '/dashboard/continuous-testing', icon: RefreshCw },
      { label: 'Support', to: '/dashboard/support', icon: LifeBuoy },
    ],
  },
];
