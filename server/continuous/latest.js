/* global window, document, location */
/* eslint-disable @typescript-eslint/no-unused-vars -- ES2017 has no optional catch binding: each catch names an error it ignores */
/* vibeeval monitoring script: tells vibeeval when this page's content changed. Sends only a content hash and the
   hostname; keeps one localStorage entry. Plain ES2017, no dependencies; never throws into the page. */
(function () {
  try {
    var GAP = 300000; // at least 5 minutes between checks
    var MAX_PER_DAY = 12; // counter resets at midnight UTC
    var STALE = 86400000; // an unchanged hash is reported again after 24 hours
    var KEY = 'vibeeval_monitor';
    // Not content: code, styles, embeds, and nodes that change on every render (times, nonces, csrf tokens). The
    // whole subtree of such an element is left out.
    var DROP_TAGS = { script: 1, style: 1, noscript: 1, template: 1, svg: 1, iframe: 1, time: 1 };
    var SECRET_NAME = /csrf|xsrf|token/i;
    var dropped = function (el) {
      var tag = el.localName;
      if (DROP_TAGS[tag] === 1 || el.hasAttribute('nonce') || el.hasAttribute('data-nonce')) return true;
      return tag === 'input' && SECRET_NAME.test(el.getAttribute('name') || '');
    };
    var VOLATILE = /\b1\d{9}(\d{3})?\b|\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/g;
    var me = document.currentScript;
    var token = me && me.getAttribute('data-site');
    if (!token || !window.fetch || !window.TextEncoder) return;
    var api = new URL(me.src).origin;
    var storage = (function () {
      try {
        var s = window.localStorage;
        s.setItem(KEY + '_t', '1');
        s.removeItem(KEY + '_t');
        return s;
      } catch (e) {
        return null;
      }
    })();
    if (!storage) return;

    // Text and element structure (tag names in document order), volatile parts left out. One native TreeWalker pass
    // over the live page, no copy and no filter callback: about 2 ms on a page of 5,000 elements.
    var normalised = function () {
      var walker = document.createTreeWalker(document.body, 5); // NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT
      var text = [];
      var tags = [];
      var node = walker.nextNode();
      while (node) {
        if (node.nodeType === 3) {
          text.push(node.data);
          node = walker.nextNode();
        } else if (dropped(node)) {
          node = afterSubtree(walker);
        } else {
          tags.push(node.tagName);
          node = walker.nextNode();
        }
      }
      return (text.join('') + ' ' + tags.join(' ')).replace(VOLATILE, '').replace(/\s+/g, ' ').trim();
    };
    // The first node after the walker's current node and everything inside it; null at the end of the page.
    var afterSubtree = function (walker) {
      do {
        var next = walker.nextSibling();
        if (next) return next;
      } while (walker.parentNode());
      return null;
    };
    // FNV-1a, 32 bits, over the UTF-8 bytes: the same hash /vibe-loop shows.
    var fnv1a = function (text) {
      var bytes = new TextEncoder().encode(text);
      var h = 0x811c9dc5;
      for (var i = 0; i < bytes.length; i++) h = Math.imul(h ^ bytes[i], 0x01000193);
      return ('0000000' + (h >>> 0).toString(16)).slice(-8);
    };
    var load = function () {
      try {
        return JSON.parse(storage.getItem(KEY) || '{}') || {};
      } catch (e) {
        return {};
      }
    };
    var save = function (state) {
      try {
        storage.setItem(KEY, JSON.stringify(state));
      } catch (e) {
        /* storage full or blocked: the next check tries again */
      }
    };
    var report = function (hash) {
      fetch(api + '/continuous-testing', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ site_token: token, hash: hash, hostname: location.hostname }),
        keepalive: true,
        credentials: 'omit',
        mode: 'cors',
      }).then(
        function (response) {
          if (!response.ok && response.status !== 429) forget(hash);
        },
        function () {
          forget(hash);
        },
      );
    };
    // A report that did not arrive is sent again at the next check.
    var forget = function (hash) {
      var state = load();
      if (state.h === hash) {
        state.r = 0;
        save(state);
      }
    };
    var check = function () {
      try {
        var now = Date.now();
        var day = new Date(now).toISOString().slice(0, 10);
        var state = load();
        if (state.d !== day) {
          state.d = day;
          state.n = 0;
        }
        if (state.c && now - state.c < GAP && now >= state.c) return;
        if ((state.n || 0) >= MAX_PER_DAY) return;
        state.c = now;
        state.n = (state.n || 0) + 1;
        var hash = fnv1a(normalised());
        var send = hash !== state.h || !state.r || now - state.r >= STALE;
        if (send) {
          state.h = hash;
          state.r = now;
        }
        save(state);
        if (send) report(hash);
      } catch (e) {
        /* never disturb the page */
      }
    };
    var idle = function () {
      if (window.requestIdleCallback) window.requestIdleCallback(check, { timeout: 10000 });
      else setTimeout(check, 1);
    };
    var start = function () {
      idle();
      // Single-page apps change without a reload: look again every gap while the page stays open.
      setInterval(idle, GAP);
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start);
  } catch (e) {
    /* never disturb the page */
  }
})();
