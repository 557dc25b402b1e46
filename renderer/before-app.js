/* global window, document -- a classic script of the prerendered pages */
// What a prerendered page does before the app runs (the app starts after the first paint and takes a second or more
// to take the page over; until then its buttons have no handlers):
// - keeps the visitor's input for the app: a click on a button (or Enter in a form whose send button is still
//   disabled) is held back, the button shows it is busy, and the app replays it once, when it runs
//   (renderer/src/app/before-app.ts); text typed in a field stays in the page and is handed to the app too;
// - shows the cookie banner 1 s after the page is shown, as the spec says, whether or not the app runs by then.
// The build writes this file into assets/ under a content hash and loads it from <head>, render-blocking, so that
// it listens before anything can be clicked (scripts/build-plugins.ts).
(function () {
  var CONTROL = 'button, [role="button"], [role="tab"], input[type="submit"], input[type="button"]';
  var FIELD = 'input, textarea, select';
  // Enough for any page: the first few controls a visitor activates, each kept once (a second click on 'Sign In'
  // must not sign in twice).
  var MAX_CONTROLS = 8;
  var MAX_FIELDS = 32;
  /** Same as common/marketing.ts (COOKIE_CONSENT_KEY, MARKETING_TIMING.consentBannerDelayMs). */
  var CONSENT_KEY = 'cookie-consent';
  var BANNER_DELAY_MS = 1000;
  var html = document.documentElement;
  var controls = [];
  var fields = [];
  var taken = false;
  // The prerendered page's elements, once parsed. Input is held back only on these: what the app renders itself
  // (its boot error screen, a page rendered afresh) has its handlers from the start.
  var prerendered = null;

  function prerenderedPage() {
    if (prerendered) return prerendered;
    var root = document.getElementById('root');
    if (!root) return [];
    var page = Array.prototype.slice.call(root.children);
    // Kept once the whole page is parsed (the app starts later still, after the first paint).
    if (document.readyState !== 'loading') prerendered = page;
    return page;
  }

  function onPage(element) {
    var page = prerenderedPage();
    if (!element) return false;
    for (var i = 0; i < page.length; i++) if (page[i].contains(element)) return true;
    return false;
  }

  /** Where `element` sits under #root (child indices), to find its counterpart if the app renders the page afresh. */
  function pathOf(element) {
    var root = document.getElementById('root');
    var path = [];
    for (var node = element; node && node !== root && node.parentElement; node = node.parentElement) {
      path.unshift(Array.prototype.indexOf.call(node.parentElement.children, node));
    }
    return path;
  }

  function keep(list, max, element) {
    for (var i = 0; i < list.length; i++) if (list[i].element === element) return false;
    if (list.length >= max) return false;
    list.push({ element: element, path: pathOf(element), text: element.textContent });
    return true;
  }

  var styled = false;
  function showBusy(element) {
    if (!styled) {
      styled = true;
      var style = document.createElement('style');
      style.textContent =
        '@keyframes vibeeval-before-app{50%{opacity:.45}}' +
        '[data-before-app="pending"]{cursor:progress!important;animation:vibeeval-before-app 1.2s ease-in-out infinite}' +
        '@media (prefers-reduced-motion:reduce){[data-before-app="pending"]{animation:none;opacity:.6}}';
      document.head.appendChild(style);
    }
    element.setAttribute('data-before-app', 'pending');
    element.setAttribute('aria-busy', 'true');
  }

  function holdBack(event) {
    event.preventDefault();
    event.stopImmediatePropagation();
  }

  function onClick(event) {
    var control = event.target && event.target.closest ? event.target.closest(CONTROL) : null;
    if (taken || !onPage(control)) return;
    holdBack(event);
    if (control.disabled || control.getAttribute('aria-disabled') === 'true') return;
    if (keep(controls, MAX_CONTROLS, control)) showBusy(control);
  }

  /** The button Enter would press (the form's first submit button), or null. */
  function defaultButton(form) {
    for (var i = 0; i < form.elements.length; i++) {
      var element = form.elements[i];
      if (element.type === 'submit' && (element.tagName === 'BUTTON' || element.tagName === 'INPUT')) return element;
    }
    return null;
  }

  // A send button that waits for the app (the URL test's, disabled while its field is empty in the HTML) makes the
  // browser ignore Enter: the form is kept and sent once the app runs, if its button is enabled then.
  function onKeydown(event) {
    var field = event.target;
    if (taken || event.key !== 'Enter' || event.isComposing || !field || field.tagName !== 'INPUT' || !field.form) return;
    var button = defaultButton(field.form);
    if (!button || !button.disabled || !onPage(field.form)) return;
    holdBack(event);
    if (keep(controls, MAX_CONTROLS, field.form)) showBusy(button);
  }

  // A submit that is not a button's click (that is held back above): Enter in a form without a send button.
  function onSubmit(event) {
    if (taken || !onPage(event.target)) return;
    holdBack(event);
    keep(controls, MAX_CONTROLS, event.target);
  }

  function onInput(event) {
    var field = event.target;
    if (taken || !field || !field.matches || !field.matches(FIELD) || !onPage(field)) return;
    keep(fields, MAX_FIELDS, field);
  }

  window.addEventListener('click', onClick, true);
  window.addEventListener('keydown', onKeydown, true);
  window.addEventListener('submit', onSubmit, true);
  window.addEventListener('input', onInput, true);
  window.addEventListener('change', onInput, true);
  document.addEventListener('readystatechange', prerenderedPage);

  /** The app, once it runs: what was kept (the app replays it), and no more holding back. */
  window.vibeevalBeforeApp = {
    take: function () {
      taken = true;
      for (var i = 0; i < controls.length; i++) {
        var busy = controls[i].element.tagName === 'FORM' ? defaultButton(controls[i].element) : controls[i].element;
        if (busy) {
          busy.removeAttribute('data-before-app');
          busy.removeAttribute('aria-busy');
        }
      }
      return { controls: controls, fields: fields };
    },
  };

  function consentStored() {
    try {
      var value = JSON.parse(localStorage.getItem(CONSENT_KEY) || 'null');
      return Boolean(value) && value.necessary === true && typeof value.analytics === 'boolean' && typeof value.marketing === 'boolean';
    } catch {
      return false; // unreadable storage or not ours: no choice made
    }
  }

  // Calls `then` once the page is shown: at its first contentful paint (as soon as the browser reports it), or
  // at once where paint timing is missing. The delay is then counted by the page's own timers, which tests may
  // replace with a fake clock (paint timings stay on the real one).
  function whenShown(then) {
    var painted = function (entries) {
      for (var i = 0; i < entries.length; i++) if (entries[i].name === 'first-contentful-paint') return true;
      return false;
    };
    if (typeof PerformanceObserver === 'undefined' || painted(performance.getEntriesByType('paint'))) return then();
    try {
      new PerformanceObserver(function (list, observer) {
        if (!painted(list.getEntries())) return;
        observer.disconnect();
        then();
      }).observe({ type: 'paint', buffered: true });
    } catch {
      then();
    }
  }

  // The banner is in the prerendered page, hidden until <html data-cookie-banner="shown"> (cookie-banner.tsx).
  if (!consentStored()) {
    whenShown(function () {
      window.setTimeout(function () {
        if (!consentStored()) html.setAttribute('data-cookie-banner', 'shown');
      }, BANNER_DELAY_MS);
    });
  }
})();
