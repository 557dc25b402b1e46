// vibeeval's own monitoring script, as the Installation tab gives it: `<script src="<server>/latest.js"
// data-site="vst_…" async>`. Its server changes the file in place (a fix reaches every site within minutes), so an
// integrity hash would block it at the first update: like the evergreen services of the SRI check, it cannot carry
// SRI, and the scanner must not lower the grade of a site for installing the product's own script as told.

const SITE_TOKEN = /^vst_[A-Za-z0-9_-]{8,60}$/;

/** Whether a script element is vibeeval's monitoring script: served as /latest.js and carrying a site token. */
export function isMonitoringScript(script: { src?: string; site?: string }): boolean {
  if (!script.src || !script.site || !SITE_TOKEN.test(script.site.trim())) return false;
  try {
    return new URL(script.src, 'https://base.invalid/').pathname === '/latest.js';
  } catch {
    return false;
  }
}
