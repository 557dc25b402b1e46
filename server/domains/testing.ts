import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { VERIFICATION_PATH } from '../../common/domains';
import type { TxtResolver } from './verify';

/** A DNS stand-in answering TXT questions from a table; a name it does not hold is ENOTFOUND, as a real resolver says. */
export class StandInTxtResolver implements TxtResolver {
  readonly records = new Map<string, string[][]>();
  readonly asked: string[] = [];

  async resolveTxt(name: string): Promise<string[][]> {
    this.asked.push(name);
    const records = this.records.get(name);
    if (records) return records;
    throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
  }
}

/** A site on 127.0.0.1 serving each domain's token file from a table (by Host header); anything else is 404. */
export async function startTokenSite(): Promise<{ port: number; tokens: Map<string, string>; requests: string[]; close(): Promise<void> }> {
  const tokens = new Map<string, string>();
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    requests.push(`${req.method} ${host}${req.url}`);
    const token = tokens.get(host);
    if (req.url === VERIFICATION_PATH && token !== undefined) return res.writeHead(200, { 'content-type': 'text/plain' }).end(`${token}\n`);
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    tokens,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
