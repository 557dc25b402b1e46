import { createSystem, defaultBaseConfig, defineConfig, mergeConfigs } from '@chakra-ui/react';
import {
  accordionSlotRecipe,
  alertSlotRecipe,
  animationStyles,
  avatarSlotRecipe,
  badgeRecipe,
  breakpoints,
  buttonRecipe,
  cardSlotRecipe,
  checkboxSlotRecipe,
  checkmarkRecipe,
  codeRecipe,
  collapsibleSlotRecipe,
  containerRecipe,
  cssVarsPrefix,
  cssVarsRoot,
  dataListSlotRecipe,
  dialogSlotRecipe,
  drawerSlotRecipe,
  emptyStateSlotRecipe,
  fieldSlotRecipe,
  globalCss,
  headingRecipe,
  iconRecipe,
  inputAddonRecipe,
  inputRecipe,
  keyframes,
  layerStyles,
  linkRecipe,
  listSlotRecipe,
  menuSlotRecipe,
  nativeSelectSlotRecipe,
  progressSlotRecipe,
  radioGroupSlotRecipe,
  radiomarkRecipe,
  semanticTokens,
  separatorRecipe,
  skeletonRecipe,
  spinnerRecipe,
  statSlotRecipe,
  switchSlotRecipe,
  tableSlotRecipe,
  tabsSlotRecipe,
  textareaRecipe,
  textStyles,
  timelineSlotRecipe,
  toastSlotRecipe,
  tokens,
} from '@chakra-ui/react/theme';

/**
 * The recipes of the Chakra components the app renders, by the key each component looks up (theme.test.ts checks
 * every component imported from @chakra-ui/react finds its recipe here). Chakra's `defaultConfig` carries all 76
 * recipes, about half of them unused, and they were the largest part of the entry script after react-dom.
 */
export const recipes = {
  badge: badgeRecipe,
  button: buttonRecipe,
  code: codeRecipe,
  container: containerRecipe,
  heading: headingRecipe,
  icon: iconRecipe,
  input: inputRecipe,
  inputAddon: inputAddonRecipe,
  link: linkRecipe,
  separator: separatorRecipe,
  skeleton: skeletonRecipe,
  spinner: spinnerRecipe,
  textarea: textareaRecipe,
  checkmark: checkmarkRecipe,
  radiomark: radiomarkRecipe,
};

export const slotRecipes = {
  accordion: accordionSlotRecipe,
  alert: alertSlotRecipe,
  avatar: avatarSlotRecipe,
  card: cardSlotRecipe,
  checkbox: checkboxSlotRecipe,
  collapsible: collapsibleSlotRecipe,
  dataList: dataListSlotRecipe,
  dialog: dialogSlotRecipe,
  drawer: drawerSlotRecipe,
  emptyState: emptyStateSlotRecipe,
  field: fieldSlotRecipe,
  list: listSlotRecipe,
  menu: menuSlotRecipe,
  nativeSelect: nativeSelectSlotRecipe,
  progress: progressSlotRecipe,
  radioGroup: radioGroupSlotRecipe,
  stat: statSlotRecipe,
  switch: switchSlotRecipe,
  table: tableSlotRecipe,
  tabs: tabsSlotRecipe,
  timeline: timelineSlotRecipe,
  toast: toastSlotRecipe,
};

/** Chakra's default theme (its `defaultThemeConfig`) with only the recipes above. */
const chakraTheme = defineConfig({
  preflight: true,
  cssVarsPrefix,
  cssVarsRoot,
  globalCss,
  theme: { breakpoints, keyframes, tokens, semanticTokens, recipes, slotRecipes, textStyles, layerStyles, animationStyles },
});

/** A colour scale's semantic slots, so each tone below works as a `colorPalette` (Badge, Button, Alert...). */
function tone(scale: string, contrast = 'white', solidShade = 600) {
  return {
    solid: { value: `{colors.${scale}.${solidShade}}` },
    contrast: { value: contrast },
    fg: { value: { _light: `{colors.${scale}.700}`, _dark: `{colors.${scale}.300}` } },
    muted: { value: { _light: `{colors.${scale}.200}`, _dark: `{colors.${scale}.800}` } },
    subtle: { value: { _light: `{colors.${scale}.100}`, _dark: `{colors.${scale}.900}` } },
    emphasized: { value: { _light: `{colors.${scale}.300}`, _dark: `{colors.${scale}.700}` } },
    focusRing: { value: `{colors.${scale}.500}` },
  };
}

const scale = (shades: Record<number, string>) => Object.fromEntries(Object.entries(shades).map(([shade, value]) => [shade, { value }]));

const config = defineConfig({
  globalCss: {
    'html, body': { bg: 'bg', color: 'fg' },
  },
  theme: {
    tokens: {
      colors: {
        brand: scale({
          50: '#eef2ff',
          100: '#e0e7ff',
          200: '#c7d2fe',
          300: '#a5b4fc',
          400: '#818cf8',
          500: '#6366f1',
          600: '#4f46e5',
          700: '#4338ca',
          800: '#3730a3',
          900: '#312e81',
          950: '#1e1b4b',
        }),
        // Chakra has no amber; the spec shows pending and unknown states in amber.
        amber: scale({
          50: '#fffbeb',
          100: '#fef3c7',
          200: '#fde68a',
          300: '#fcd34d',
          400: '#fbbf24',
          500: '#f59e0b',
          600: '#d97706',
          700: '#b45309',
          800: '#92400e',
          900: '#78350f',
          950: '#451a03',
        }),
      },
    },
    semanticTokens: {
      colors: {
        brand: tone('brand'),
        /** Finding severities: use as colorPalette="severity.critical" or color="severity.critical.fg". */
        severity: {
          critical: tone('red'),
          high: tone('orange'),
          medium: tone('yellow', 'black'),
          moderate: tone('yellow', 'black'),
          low: tone('blue'),
          info: tone('gray'),
          // green.600 under white text is 3.3:1; 700 reaches 5:1 (WCAG AA for small text).
          secure: tone('green', 'white', 700),
        },
        /** Project statuses; anything else shows in amber. */
        status: {
          active: tone('green', 'white', 700),
          completed: tone('blue'),
          archived: tone('gray'),
          other: tone('amber', 'black'),
        },
        /** Activity event kinds (event_name); kebab-case keys, see `eventPalette`. */
        event: {
          'page-view': tone('blue'),
          'form-submit': tone('green', 'white', 700),
          'button-click': tone('purple'),
          error: tone('red'),
          'api-call': tone('orange'),
          other: tone('gray'),
        },
      },
    },
  },
});

/** The app's one design system: Chakra's defaults (the recipes the app uses) plus vibeeval's brand and meaning colours. */
export const system = createSystem(mergeConfigs(defaultBaseConfig, chakraTheme), config);
