/* global document -- a classic script of the prerendered pages */
// Starts the app once the prerendered page has painted. The app's modules (about 600 KB) would otherwise be
// evaluated before the first frame: measured in headless Chromium on loopback, the landing page's first content
// came at 576 ms with them and at 320 ms when they start after the frame (the same page without script: 316 ms).
// The build writes this file into assets/ under a content hash and names the app's entry and its preloads in
// data-main and data-preload (scripts/build-plugins.ts).
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
