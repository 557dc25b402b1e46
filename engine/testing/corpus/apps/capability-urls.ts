// Capability URLs: automation and chat webhooks called straight from the browser (a Lovable contact form posting to
// Make, a Bolt shop announcing orders in Discord, a landing page adding sign-ups through Zapier), and their clean
// twins that post to their own server route or a Supabase edge function. Hook URLs are assembled at run time
// (engine/testing/fake-keys.ts), so nothing hook-shaped is committed; no hook host is reachable from the corpus, and
// the rendered apps keep their forms in the DOM so a pass that submitted one would show as a write to the app.
import { fakeToken } from '../../fake-keys';
import { anonKey, htmlPage, supabaseBundle, viteApp } from '../shapes';
import type { CorpusApp } from '../types';

const LOWER = 'abcdefghijklmnopqrstuvwxyz0123456789';
const MAKE_HOOK = `https://hook.eu2.make.com/${fakeToken(32, LOWER, 501)}`;
const DISCORD_HOOK = `https://discord.com/api/webhooks/${fakeToken(19, '0123456789', 502)}/${fakeToken(68, undefined, 503)}`;
const ZAPIER_HOOK = `https://hooks.zapier.com/hooks/catch/${fakeToken(8, '0123456789', 504)}/${fakeToken(7, LOWER, 505)}/`;

/** The contact form a Lovable landing page renders, in the page itself so the rendered pass sees a real form. */
const CONTACT_FORM = `<form id="contact" method="post" action="/api/contact">
  <input name="name" placeholder="Your name"><input name="email" type="email" placeholder="you@company.com">
  <input name="subject" placeholder="Subject"><textarea name="message"></textarea><button type="submit">Send message</button>
</form>`;

/** Minified submit handler of the contact form, posting JSON to `target` (a hook or the app's own route). */
const contactHandler = (target: string) =>
  `const Ht="${target}";async function Sd(e){const t=await fetch(Ht,{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify({name:e.name,email:e.email,subject:e.subject,message:e.message,submittedAt:new Date().toISOString()})});if(!t.ok)throw new Error("Network response was not ok");return!0}` +
  `document.getElementById("contact")?.addEventListener("submit",n=>{n.preventDefault();const r=Object.fromEntries(new FormData(n.target));Sd(r).then(()=>{n.target.reset()})});`;

/** The order confirmation step of a Bolt shop: tells the owner about each order. */
const orderNotice = (send: string) =>
  `async function Fo(o){${send}}async function Po(o){const{data:e,error:t}=await Ve.from("orders").insert(o).select().single();if(t)throw t;await Fo(e);return e}`;

const VULNERABLE: CorpusApp[] = [
  {
    id: 'vite-supabase-make-contact-hook',
    shape: 'vite-supabase',
    title: "Lovable landing page whose contact form posts name, email, subject and message straight to a Make webhook: anyone can mail the owner's inbox through it",
    render: true,
    expect: [{ checkId: 'automation-webhook-in-client', minSeverity: 'high' }],
    routes: () => ({
      ...viteApp('Brightside Studio', contactHandler(MAKE_HOOK)),
      '/': htmlPage('Brightside Studio', `<main><h1>Brightside Studio</h1>${CONTACT_FORM}</main>`, '<script type="module" crossorigin src="/assets/index-C4mLq2Xa.js"></script>'),
    }),
  },
  {
    id: 'vite-supabase-discord-order-hook',
    shape: 'vite-supabase',
    title: 'Bolt shop that announces each order in the owner\'s Discord channel from the browser: the webhook is in the bundle',
    supabase: { tables: { orders: { rows: [], rls: true }, products: { rows: [{ id: 1, name: 'Linen tote', price: 24 }], rls: true } } },
    expect: [{ checkId: 'automation-webhook-in-client', minSeverity: 'high' }],
    routes: (ctx) =>
      viteApp(
        'Tote & Co',
        supabaseBundle(
          ctx.supabaseUrl!,
          anonKey('toteco', 51),
          ['products'],
          `const Dw="${DISCORD_HOOK}";` +
            orderNotice('await fetch(Dw,{method:"POST",headers:{"Content-Type":"application/json"},body:JSON.stringify({username:"Shop bot",content:`New order #${o.id}`,embeds:[{title:"Order",fields:[{name:"Total",value:String(o.total)},{name:"Customer",value:o.email}]}]})})'),
        ),
      ),
  },
  {
    id: 'static-zapier-waitlist-hook',
    shape: 'static',
    title: 'Static landing page whose waitlist form posts the visitor\'s email to a Zapier catch hook from the browser',
    expect: [{ checkId: 'automation-webhook-in-client', minSeverity: 'medium' }],
    routes: () => ({
      '/': htmlPage(
        'Quillnote',
        '<main><h1>Quillnote</h1><form id="waitlist"><input name="email" type="email"><button>Join the waitlist</button></form></main>',
        `<script>const scriptURL='${ZAPIER_HOOK}';document.addEventListener("DOMContentLoaded",()=>{document.getElementById("waitlist").addEventListener("submit",e=>{e.preventDefault();fetch(scriptURL,{method:"POST",body:new FormData(e.target)}).then(()=>e.target.reset())})});</script>`,
      ),
    }),
  },
];

const CONTROLS: CorpusApp[] = [
  {
    id: 'vite-supabase-clean-contact-route',
    shape: 'vite-supabase',
    title: 'clean control: the same contact form posting to its own /api/contact route, which calls the automation server-side',
    control: true,
    render: true,
    expect: [],
    routes: () => ({
      ...viteApp('Brightside Studio', contactHandler('/api/contact')),
      '/': htmlPage('Brightside Studio', `<main><h1>Brightside Studio</h1>${CONTACT_FORM}</main>`, '<script type="module" crossorigin src="/assets/index-C4mLq2Xa.js"></script>'),
    }),
  },
  {
    id: 'vite-supabase-clean-order-edge-function',
    shape: 'vite-supabase',
    title: 'clean control: the same shop telling the owner about orders through a Supabase edge function that keeps the Discord webhook',
    control: true,
    supabase: { tables: { orders: { rows: [], rls: true }, products: { rows: [{ id: 1, name: 'Linen tote', price: 24 }], rls: true } } },
    expect: [],
    routes: (ctx) =>
      viteApp(
        'Tote & Co',
        supabaseBundle(
          ctx.supabaseUrl!,
          anonKey('toteco', 52),
          ['products'],
          orderNotice('const{error:t}=await Ve.functions.invoke("notify-order",{body:{order_id:o.id}});if(t)console.error(t)'),
        ),
      ),
  },
  {
    id: 'static-clean-zapier-help-text',
    shape: 'static',
    title: 'clean control: the waitlist posts to its own route; its help page tells users where to paste a Zapier hook, without one',
    control: true,
    expect: [],
    routes: () => ({
      '/': htmlPage(
        'Quillnote',
        '<main><h1>Quillnote</h1><form id="waitlist" method="post" action="/api/waitlist"><input name="email" type="email"><button>Join the waitlist</button></form><a href="/help/integrations">Integrations</a></main>',
      ),
      '/help/integrations': htmlPage(
        'Integrations · Quillnote',
        '<main><h1>Send new notes to Zapier</h1><p>In Zapier, create a Zap with <a href="https://zapier.com/apps/webhook/integrations">Webhooks by Zapier</a> and choose <em>Catch Hook</em>. Copy the URL it shows (it starts with <code>https://hooks.zapier.com/hooks/catch/</code>) and paste it in Settings → Integrations, for example <code>https://hooks.zapier.com/hooks/catch/YOUR_ACCOUNT_ID/YOUR_HOOK_ID/</code>.</p></main>',
      ),
    }),
  },
];

export const APPS: CorpusApp[] = [...VULNERABLE, ...CONTROLS];
