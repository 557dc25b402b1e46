// Every corpus app, one list per area so each area's apps live beside each other.
import type { CorpusApp } from '../types';
import { APPS as CORE } from './core';
import { APPS as API } from './api';
import { APPS as TOKENS } from './tokens';
import { APPS as FRAMEWORKS } from './frameworks';
import { APPS as FIREBASE } from './firebase';
import { APPS as DISCOVERY } from './discovery';
import { APPS as DATA_SEVERITY } from './data-severity';
import { APPS as CAPABILITY_URLS } from './capability-urls';
import { APPS as DETERMINISM } from './determinism';
import { APPS as DISCOVERY_2 } from './discovery-2';
import { APPS as SIGNED_IN } from './signed-in';
import { APPS as SIGNED_IN_API } from './signed-in-api';
import { APPS as SIGNED_IN_METHODS } from './signed-in-methods';
import { APPS as SIGNED_IN_ACTIVE } from './signed-in-active';

export const CORPUS: readonly CorpusApp[] = [...CORE, ...API, ...TOKENS, ...FRAMEWORKS, ...FIREBASE, ...DISCOVERY, ...DATA_SEVERITY, ...CAPABILITY_URLS, ...DETERMINISM, ...DISCOVERY_2, ...SIGNED_IN, ...SIGNED_IN_METHODS, ...SIGNED_IN_ACTIVE, ...SIGNED_IN_API];
