import { main } from './main';

// The server bundle's entry (out/main/server.js), run by Electron's utility process or plain Node.
void main();
