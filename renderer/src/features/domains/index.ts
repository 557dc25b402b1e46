// Domains' public face: the section the Members page shows (lint:imports).
export { DomainsSection } from './domains-section';
