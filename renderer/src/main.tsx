import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { captureEntryLocation } from './app/entry-location';
import { createBridge } from './bridge';

// First thing, before any supabase-js client exists: it strips a recovery link's fragment once read.
const entry = captureEntryLocation();

const rootElement = document.getElementById('root');
if (!rootElement) throw new Error('Root element not found');

createRoot(rootElement).render(
  <StrictMode>
    <App bridge={createBridge()} entry={entry} />
  </StrictMode>,
);
