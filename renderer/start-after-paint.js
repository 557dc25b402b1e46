/* global document, window -- a classic script of the prerendered pages */
// Starts the app once the prerendered page has painted. The app's modules (about 600 KB) would otherwise be
// evaluated before the first frame: measured in headless Chromium on loopback, the landing page's first content
// came at 576 ms with them and at 320 ms when they start after the frame (the same page without script: 316 ms).
// A dashboard page opened with a stored session is the exception: there the user waits for their data, not for
// the shell, so the app starts at once and the page's first data is asked for now, in parallel with the app's
// modules. The build writes this file into assets/ under a content hash and names the app's entry and its
// preloads in data-main and data-preload (scripts/build-plugins.ts). The app's index.html, for the pages that are
// not prerendered (a project's page), loads its entry itself and this script before it, without data-main: there
// it only asks for the first data.
(function () {
  var script = document.currentScript;
  var started = false;
  function start() {
    if (started) return;
    started = true;
    var preloads = (script.getAttribute('data-preload') || '').split(' ');
    for (var i = 0; i < preloads.length; i++) {
      if (!preloads[i]) continue;
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = preloads[i];
      document.head.appendChild(link);
    }
    var main = document.createElement('script');
    main.type = 'module';
    main.crossOrigin = '';
    main.src = script.getAttribute('data-main');
    document.head.appendChild(main);
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
    ask(path, headers, workspace);
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
  }

  var session = storedSession();
  if (session) {
    // The app's boot asks for its config before anything else (renderer/src/api/app-config.ts): a round trip
    // after its modules have run, which a signed-in dashboard page no longer waits for.
    ask('/app-config', { accept: 'application/json' }, undefined);
    askForFirstData(session);
  }
  if (!script.getAttribute('data-main')) return;
  if (session) return start();

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
