/* global document, window -- a classic script of the prerendered pages */
// Starts the app once the prerendered page has painted. The app's modules (about 600 KB) would otherwise be
// evaluated before the first frame: measured in headless Chromium on loopback, the landing page's first content
// came at 576 ms with them and at 320 ms when they start after the frame (the same page without script: 316 ms).
// A dashboard page opened with a stored session asks for its first data at once, and its modules are fetched
// meanwhile; when the page can paint that data itself (the project list, renderer/src/first-paint.ts, which the
// build puts before this script), the app starts once it is painted: evaluated earlier, the modules would hold the
// main thread (100 to 200 ms) while the answer waits to be shown. The build writes this file into assets/ under a
// content hash and loads it first in <head> (on dashboard pages before the rest is parsed, elsewhere async), so the
// data is asked for before the page is parsed, and names the app's entry and its preloads in data-main and
// data-preload (scripts/build-plugins.ts). The app's index.html, for the pages that are not prerendered (a project's page),
// loads its entry itself and this script before it, without data-main: there it only asks for the first data.
(function () {
  var script = document.currentScript;
  var preloaded = false;
  var started = false;
  // The app's modules fetched and compiled, not run.
  function preload() {
    if (preloaded) return;
    preloaded = true;
    var modules = [script.getAttribute('data-main')].concat((script.getAttribute('data-preload') || '').split(' '));
    for (var i = 0; i < modules.length; i++) {
      if (!modules[i]) continue;
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = modules[i];
      document.head.appendChild(link);
    }
  }
  function start() {
    if (started) return;
    // The entry renders into #root: not before the page is parsed (this script runs from <head>).
    if (document.readyState === 'loading') return document.addEventListener('DOMContentLoaded', start);
    started = true;
    preload();
    var main = document.createElement('script');
    main.type = 'module';
    main.crossOrigin = '';
    main.src = script.getAttribute('data-main');
    document.head.appendChild(main);
  }
  // After the frame that shows what the page has just drawn: a task queued from the frame's animation callback runs
  // once the frame is done. At once on a hidden page, which draws no frames.
  function startAfterFrame() {
    if (document.visibilityState === 'hidden') return start();
    window.requestAnimationFrame(function () {
      window.setTimeout(start, 0);
    });
  }

  // The session supabase-js keeps (common/auth.ts AUTH_STORAGE_KEY) when its access token is still good for more
  // than the 90 s before expiry in which supabase-js refreshes it first; else null (the app then does as usual).
  function storedSession() {
    if (!/^\/dashboard(\/|$)/.test(window.location.pathname)) return null;
    try {
      var session = JSON.parse(localStorage.getItem('vibeeval-auth-token') || 'null');
      if (!session || typeof session.access_token !== 'string' || !session.user || typeof session.user.id !== 'string') return null;
      return session.expires_at * 1000 - Date.now() > 90000 ? session : null;
    } catch {
      return null;
    }
  }

  // The API path of the first data the page shows: the project list, or a project (its id as the app encodes it).
  function firstDataPath(pathname) {
    if (/^\/dashboard\/projects\/?$/.test(pathname)) return '/projects';
    var project = /^\/dashboard\/projects\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/?$/i.exec(pathname);
    return project ? '/project/' + project[1] : null;
  }

  // GET of that path as the app would ask it (renderer/src/api/http.ts): the bearer token and the workspace the
  // user acts in (renderer/src/api/workspace-store.ts). The app takes the answer once (renderer/src/api/first-data.ts).
  function askForFirstData(session) {
    var path = firstDataPath(window.location.pathname);
    if (!path) return;
    var workspace = null;
    try {
      workspace = localStorage.getItem('vibeeval-workspace:' + session.user.id);
    } catch {
      // As the app: no stored choice is the personal workspace.
    }
    if (!workspace || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(workspace)) workspace = session.user.id;
    workspace = workspace.toLowerCase();
    var headers = { accept: 'application/json', authorization: 'Bearer ' + session.access_token, 'x-vibeeval-workspace': workspace };
    return ask(path, headers, workspace);
  }

  // GET `path` on this origin, left for the app (renderer/src/api/first-data.ts) with the workspace it was asked in
  // (undefined: in none).
  function ask(path, headers, workspace) {
    var url = window.location.origin + path;
    var response = fetch(url, { headers: headers }).catch(function () {
      return null;
    });
    window.__vibeevalFirstAnswers = window.__vibeevalFirstAnswers || {};
    window.__vibeevalFirstAnswers[url] = { workspace: workspace, at: Date.now(), response: response };
    // The build puts the painter of a page's first data before this script (renderer/src/first-paint.ts): it shows
    // the answer in the prerendered page before the app runs, and answers a promise of having done so, or null
    // when this page has nothing it paints.
    return window.__vibeevalFirstPaint ? window.__vibeevalFirstPaint.answer(path, response) : null;
  }

  var session = storedSession();
  var painting = null;
  if (session) {
    // The app's boot asks for its config before anything else (renderer/src/api/app-config.ts): a round trip
    // after its modules have run, which a signed-in dashboard page no longer waits for.
    ask('/app-config', { accept: 'application/json' }, undefined);
    painting = askForFirstData(session);
  }
  if (!script.getAttribute('data-main')) return;
  if (session && !painting) return start();
  if (painting) {
    preload();
    // Painted or not (an error, another page's answer), the app starts after it; a second at the latest.
    painting.then(startAfterFrame, startAfterFrame);
    window.setTimeout(start, 1000);
    return;
  }

  // Once the first contentful paint is on screen (its paint timing entry is recorded when the frame is presented);
  // at once on a hidden page (it draws no frames) or where paint timing is missing; after a second at the latest.
  if (document.visibilityState === 'hidden' || typeof PerformanceObserver === 'undefined') return start();
  var painted = function (entries) {
    for (var i = 0; i < entries.length; i++) if (entries[i].name === 'first-contentful-paint') return true;
    return false;
  };
  if (painted(performance.getEntriesByType('paint'))) return start();
  try {
    new PerformanceObserver(function (list, observer) {
      if (!painted(list.getEntries())) return;
      observer.disconnect();
      start();
    }).observe({ type: 'paint', buffered: true });
  } catch {
    return start();
  }
  setTimeout(start, 1000);
})();
