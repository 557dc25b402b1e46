// The live browser's public face: the view other pages embed (lint:imports).
export { LiveBrowser } from './live-browser';
