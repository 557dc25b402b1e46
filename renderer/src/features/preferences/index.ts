// Preferences' public face: the user's settings, read by features that follow them (lint:imports).
export { usePreferences } from './hooks/use-preferences';
