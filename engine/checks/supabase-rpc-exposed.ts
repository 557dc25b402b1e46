import { analyzeSupabase } from '../analysis/supabase';
import { defineCheck, type FindingDraft } from '../types';

export const supabaseRpcExposed = defineCheck({
  id: 'supabase-rpc-exposed',
  family: 'supabase',
  title: 'Supabase database functions callable from the browser',
  severity: 'info',
  confidence: 'medium',
  cwe: 200,
  owasp: 'A01',
  description:
    'Lists the Postgres functions the site calls through supabase.rpc() or /rest/v1/rpc/. They run with the caller\'s key; a SECURITY DEFINER function runs with its owner\'s rights and skips row level security. Functions are not called by the scan, since a call could change data.',
  remediation:
    'Review each listed function: prefer SECURITY INVOKER, check auth.uid() inside SECURITY DEFINER functions, set search_path, and REVOKE EXECUTE … FROM anon for functions only signed-in users need (Security Advisor lints 0011 and 0028).',
  references: [
    'https://supabase.com/docs/guides/database/functions#security-definer-vs-invoker',
    'https://supabase.com/docs/guides/database/database-linter?lint=0028_anon_security_definer_function_executable',
  ],
  appliesTo(site) {
    return analyzeSupabase(site).projects.length > 0;
  },
  run(site) {
    const info = analyzeSupabase(site);
    const project = info.projects[0];
    if (!project || info.rpcs.length === 0) return [];
    const names = info.rpcs.map((r) => r.name);
    const finding: FindingDraft = {
      url: `${project.url}/rest/v1/rpc/`,
      detail: `The site calls ${names.length} database function${names.length === 1 ? '' : 's'}: ${names.slice(0, 30).join(', ')}${names.length > 30 ? ', …' : ''}. Each one can be called by anyone with the public key.`,
      evidence: {
        response: info.rpcs.slice(0, 30).map((r) => `${r.name} (seen in ${r.origin === 'traffic' ? 'captured requests' : 'the bundle'})`).join('\n'),
        match: names.slice(0, 10).map((n) => `.rpc('${n}')`).join(' '),
      },
      key: project.ref ?? new URL(project.url).host,
    };
    return [finding];
  },
});
