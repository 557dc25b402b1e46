// The desktop settings' public face: the section Preferences shows in the desktop app (lint:imports).
export { DesktopSettingsSection } from './desktop-settings-section';
