import { Link } from '@chakra-ui/react';
import { Link as RouterLink } from 'react-router-dom';
import { ArticleBody, ArticleLayout, CodeBlock } from './article-layout';

const RLS_SQL = `alter table public.orders enable row level security;

-- Signed-in users see their own orders, nobody else's.
create policy "Owners read their orders"
  on public.orders for select
  to authenticated
  using ((select auth.uid()) = user_id);`;

const HEAD_CHECK = `curl -sI "https://<project-ref>.supabase.co/rest/v1/orders?select=*" \\
  -H "apikey: <anon key>" -H "Prefer: count=exact"
# content-range: 0-24/1873  → anyone can read 1,873 orders`;

const HEADERS = `Strict-Transport-Security: max-age=63072000; includeSubDomains
Content-Security-Policy: default-src 'self'; connect-src 'self' https://<project-ref>.supabase.co; frame-ancestors 'none'
X-Content-Type-Options: nosniff
Referrer-Policy: strict-origin-when-cross-origin
Permissions-Policy: camera=(), microphone=(), geolocation=()`;

/** /updates/vibe-coding-apps */
export function VibeCodingAppsPage() {
  return (
    <ArticleLayout path="/updates/vibe-coding-apps">
      <ArticleBody>
        <p>
          Lovable, Bolt, v0, Cursor and Replit can turn a paragraph of text into a working app with sign-up, a database and payments in an afternoon. What they produce is usually a
          single-page front end that talks straight to a hosted backend such as Supabase or Firebase from the visitor&apos;s browser. That architecture is fine, but it moves the
          security boundary: everything the browser downloads is public, and the only thing standing between a visitor and your data is the configuration of the backend.
        </p>
        <p>
          The consequences are measurable. In 2025 a researcher checked 1,645 apps from Lovable&apos;s showcase and found 170 of them exposing data to anyone holding the public
          key, a class of flaw now tracked as CVE-2025-48757. None of these apps were &ldquo;hacked&rdquo; in the cinematic sense; their databases simply answered questions they
          should have refused. Below are the holes we find most often when scanning AI-built apps, in order of how much damage they do, with the fix for each.
        </p>

        <h2>1. Supabase tables readable with the anon key</h2>
        <p>
          Every Supabase app ships its project URL and <code>anon</code> key to the browser. That is by design: the anon key only says &ldquo;this request comes from my app&rdquo;.
          What decides who may read a row is <strong>Row Level Security (RLS)</strong>. A table created without RLS, or with a policy such as <code>using (true)</code>, can be read
          in full by anyone who copies the key out of your JavaScript, with a single request to <code>/rest/v1/&lt;table&gt;</code>.
        </p>
        <p>
          <strong>How to check:</strong> a read-only <code>HEAD</code> request with <code>Prefer: count=exact</code> tells you how many rows the anon key can see without
          downloading any of them. This is exactly what vibeeval&apos;s Supabase check does for each table it discovers.
        </p>
        <CodeBlock code={HEAD_CHECK} />
        <p>
          <strong>How to fix:</strong> enable RLS on every table in the <code>public</code> schema and write policies that compare the row&apos;s owner with <code>auth.uid()</code>
          :
        </p>
        <CodeBlock code={RLS_SQL} />
        <ul>
          <li>
            RLS with no policy denies everything, which is a safe starting point: add the policies your screens need, one operation (<code>select</code>, <code>insert</code>,{' '}
            <code>update</code>, <code>delete</code>) at a time.
          </li>
          <li>
            Views run with the rights of their owner by default and skip RLS. On PostgreSQL 15 and later, create them <code>with (security_invoker = on)</code>, or keep them out of
            the exposed schema.
          </li>
          <li>
            Storage buckets and database functions need the same care: a public bucket lists and serves every file, and a <code>security definer</code> function callable through{' '}
            <code>/rest/v1/rpc</code> runs with its owner&apos;s rights. Revoke <code>execute</code> from <code>anon</code> on functions that are not meant to be public.
          </li>
        </ul>

        <h2>2. The service_role key in the bundle</h2>
        <p>
          Supabase&apos;s <code>service_role</code> key (and the newer <code>sb_secret_…</code> keys) bypasses RLS entirely. It belongs on a server or in an Edge Function, never in
          the browser. It ends up there when an AI assistant &ldquo;fixes&rdquo; a permission error by swapping keys, or when it is stored in a variable the bundler exposes: Vite
          inlines every variable prefixed <code>VITE_</code> into the client code, and Next.js does the same for <code>NEXT_PUBLIC_</code>.
        </p>
        <p>
          Legacy Supabase keys are JWTs, so the role is readable: a token whose payload says <code>&quot;role&quot;: &quot;service_role&quot;</code> is the dangerous one, while{' '}
          <code>&quot;role&quot;: &quot;anon&quot;</code> is expected. With the new key format, <code>sb_publishable_…</code> is meant for the browser and <code>sb_secret_…</code>{' '}
          is not.
        </p>
        <p>
          <strong>How to fix:</strong> rotate first, then clean up. A key that has been served once must be treated as public: it lives on in CDN caches, browser caches and web
          archives. Move the privileged operation into an Edge Function or server route that checks the caller&apos;s session, and give the front end only the publishable or anon
          key.
        </p>

        <h2>3. Other secrets in client JavaScript</h2>
        <p>
          The same pattern repeats with every third-party API: a Stripe <code>sk_live_</code> key next to the checkout button, an OpenAI or Anthropic key so the chat feature
          &ldquo;just works&rdquo;, a SendGrid or Resend key for the contact form. Minification does not hide them; a search of the bundle finds them in seconds, and bots do
          exactly that.
        </p>
        <p>
          Not every key in the browser is a leak. Stripe&apos;s <code>pk_live_</code> publishable key, Supabase&apos;s anon key and a Firebase web <code>apiKey</code> are designed
          to be public; the protection for those lives elsewhere (RLS, Firebase Security Rules and App Check). That is why vibeeval decides the role of each key it finds instead of
          flagging every long string, and masks the value in the report.
        </p>
        <p>
          <strong>How to fix:</strong> rotate the key in the provider&apos;s dashboard, put the call behind a server function that holds the secret, and add a spending limit or
          restricted key where the provider offers one.
        </p>

        <h2>4. A served .env file, .git folder or AI-tool notes</h2>
        <p>
          Static hosts serve whatever is in the folder you deploy. Deploy the project root instead of the build output, and <code>/.env</code> answers with your database password.
          An exposed <code>/.git/</code> folder is worse: with it, the whole source history can be rebuilt, including secrets that were &ldquo;removed&rdquo; in a later commit.
          AI-assisted projects add a new kind of file to the list: <code>CLAUDE.md</code>, <code>AGENTS.md</code> and <code>.cursor/rules</code> often describe the architecture,
          internal endpoints and sometimes credentials in plain English.
        </p>
        <p>
          <strong>How to fix:</strong> deploy only the build output (<code>dist/</code> or <code>out/</code>), keep these files in <code>.gitignore</code> or outside the public
          folder, and confirm with <code>curl -I https://your-app/.env</code>. Be careful when testing a single-page app: many hosts answer every path with <code>index.html</code>{' '}
          and a 200 status, so look at the content, not just the status code. Rotate anything that was in an exposed file.
        </p>

        <h2>5. Source maps in production</h2>
        <p>
          A <code>.map</code> file next to each bundle turns minified code back into your original source, with comments, file names and the internal API routes you did not mean to
          advertise. Source maps are not a vulnerability on their own, but they make every other weakness faster to find.
        </p>
        <p>
          <strong>How to fix:</strong> Vite does not emit source maps for production builds unless <code>build.sourcemap</code> is set, and Next.js only does with{' '}
          <code>productionBrowserSourceMaps</code>. If a template turned them on, switch them off, or use <code>sourcemap: &apos;hidden&apos;</code> and upload the maps to your
          error tracker instead of the web server.
        </p>

        <h2>6. Missing security headers</h2>
        <p>
          Generated apps rarely configure response headers, so browsers fall back to their most permissive behaviour: the site can be framed for clickjacking, injected scripts run
          without restriction, and the first visit may go over plain HTTP. A reasonable baseline for a Supabase-backed single-page app:
        </p>
        <CodeBlock code={HEADERS} />
        <p>
          Set them in your host&apos;s configuration (<code>vercel.json</code>, Netlify&apos;s <code>_headers</code> file, Cloudflare Pages&apos; <code>_headers</code>, or your
          server). Start the Content-Security-Policy in <code>Content-Security-Policy-Report-Only</code> mode, watch the browser console for a few days, then enforce it. vibeeval
          scores these headers the way the MDN HTTP Observatory does, so the grade you see is comparable.
        </p>

        <h2>7. Vulnerable and malicious JavaScript libraries</h2>
        <p>
          AI tools reach for the libraries that were popular in their training data, which are not always current versions. An old jQuery, Lodash or Handlebars brings known
          cross-site scripting and prototype-pollution bugs along. Third-party script hosts are a risk of their own: in 2024 the <code>polyfill.io</code> domain changed hands and
          began serving malicious code to the sites that embedded it.
        </p>
        <p>
          <strong>How to fix:</strong> run <code>npm audit</code> and update, prefer bundling dependencies over loading them from third-party CDNs, add <code>integrity</code>{' '}
          attributes (Subresource Integrity) to the scripts you must load from a CDN, and remove any reference to polyfill.io and its sister domains.
        </p>

        <h2>A five-minute routine before every launch</h2>
        <ol>
          <li>Scan the deployed URL, not the editor preview.</li>
          <li>Fix every critical and high finding first: readable tables, secret keys, exposed files.</li>
          <li>Rotate any key that was ever served, even if the code no longer contains it.</li>
          <li>Add the security headers, then rescan to confirm the grade.</li>
          <li>
            Keep scanning: add <code>npx vibeeval scan https://your-app --fail-on high</code> to your deploy pipeline, as described in{' '}
            <Link asChild>
              <RouterLink to="/updates/vibe-friendly-testing">Testing that fits vibe coding</RouterLink>
            </Link>
            .
          </li>
        </ol>
        <p>None of these fixes require rewriting the app. They are configuration, and each one closes a door that automated bots are already trying.</p>
      </ArticleBody>
    </ArticleLayout>
  );
}
