import type { CorpusApp } from '../types';

export const APPS: CorpusApp[] = [];
