import { main } from './main';

const USAGE = `Usage: vibeeval <command>

Commands:
  serve     Run the server: API, accounts and the web app on HOST:PORT (default 127.0.0.1:8787)
  help      Show this help

Environment: PORT, HOST, VIBEEVAL_DATA_DIR, DATABASE_URL, SMTP_URL, SUPABASE_URL, SUPABASE_ANON_KEY (see README.md).`;

const [command = 'help'] = process.argv.slice(2);
switch (command) {
  case 'serve':
    void main();
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
