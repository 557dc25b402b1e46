// The reference of `npm run bench:api`: a bare Fastify route answering the same JSON body, with nothing else
// (no logger, no hooks, no database). Started by the bench as its own process, like the product's server.
import Fastify from 'fastify';

const body = process.env.BENCH_BODY ?? '[]';
const app = Fastify();
app.get('/projects', async (_request, reply) => reply.type('application/json; charset=utf-8').send(body));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.send?.('ready');
