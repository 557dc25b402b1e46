// The `vibeeval` command. Each command loads only what it needs: `scan` imports the engine and never starts the
// database or the server.
import { writeFile } from 'node:fs/promises';
import { safeMessage } from './log-scrub';

const USAGE = `Usage: vibeeval <command> [options]

Commands:
  scan <url>  Scan a website for security issues; prints a summary or writes a report
              (html, pdf, csv, json, sarif). 'vibeeval scan --help' lists its options
  serve       Run the server: API, accounts and the web app on HOST:PORT (default 127.0.0.1:8787)
  worker      Run scans and reports from the shared queue (team mode; needs DATABASE_URL)
  mcp         MCP server on stdio for AI coding agents (Cursor, Claude Code), forwarding to a running server's
              /mcp; needs VIBEEVAL_API_KEY, VIBEEVAL_URL defaults to http://127.0.0.1:8787
  help        Show this help

Environment: PORT, HOST, VIBEEVAL_DATA_DIR, DATABASE_URL, SMTP_URL, SUPABASE_URL, SUPABASE_ANON_KEY,
VIBEEVAL_CHROMIUM (see README.md).`;

async function scanCommand(args: string[]): Promise<void> {
  const [{ runScanCommand, EXIT }, { scan }] = await Promise.all([import('./cli/scan-command'), import('../engine/scan')]);
  // First Ctrl-C stops the scan cleanly (the engine sees the signal); a second one exits at once.
  const controller = new AbortController();
  process.on('SIGINT', () => {
    if (controller.signal.aborted) process.exit(EXIT.interrupted);
    controller.abort();
  });
  const code = await runScanCommand(args, {
    scan,
    writeFile: (path, data) => writeFile(path, data),
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
    colour: Boolean(process.stdout.isTTY) && !process.env.NO_COLOR,
    env: process.env,
  });
  process.exitCode = code;
  // Exit once stdout is flushed, even if a socket or browser the scan opened is still closing.
  process.stdout.write('', () => setTimeout(() => process.exit(code), 1_000).unref());
}

const [command = 'help', ...args] = process.argv.slice(2);
switch (command) {
  case 'scan':
    scanCommand(args).catch((error: unknown) => {
      console.error(`vibeeval scan: ${safeMessage(error)}`);
      process.exit(2);
    });
    break;
  case 'serve':
    import('./main').then(
      ({ main }) => main(),
      (error: unknown) => {
        console.error(`vibeeval could not start: ${safeMessage(error)}`);
        process.exitCode = 1;
      },
    );
    break;
  case 'worker':
    import('./worker').then(
      ({ runWorker }) => runWorker(),
      (error: unknown) => {
        console.error(`vibeeval worker could not start: ${safeMessage(error)}`);
        process.exitCode = 1;
      },
    );
    break;
  case 'mcp':
    // stdout carries the protocol only: every message goes to stderr.
    import('./mcp/stdio')
      .then(async ({ runStdioBridge }) => process.exit(await runStdioBridge()))
      .catch((error: unknown) => {
        console.error(`vibeeval mcp: ${safeMessage(error)}`);
        process.exit(1);
      });
    break;
  case 'help':
  case '--help':
  case '-h':
    console.log(USAGE);
    break;
  default:
    console.error(`vibeeval: unknown command '${command}'\n\n${USAGE}`);
    process.exitCode = 2;
}
