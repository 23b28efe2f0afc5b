// `node deploy/local/bench/web.mjs` (part of `npm run bench`): the front end's weight next to its goals
// (issue 8 §1): initial JS of the login page as served, each remoteEntry.js, the JS/CSS of a cold admin
// session. Starts its own system with web on ports +22000 (WEB_SIZES_URL measures a running one).
import { webSizes } from '../web-sizes.mjs';

await webSizes();
