import { PUBLIC_SCAN_PATH } from '@common/marketing';

/**
 * POST {api host}/v2/vibe-scanner with {url, email} (spec section 7). Sent and forgotten: only `ok` is looked at,
 * and a failure is only logged, since the visitor has already been told the email was received.
 */
export function sendPublicScanRequest(serverOrigin: string, body: { url: string; email: string }): void {
  fetch(`${serverOrigin}${PUBLIC_SCAN_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  }).then(
    async (response) => {
      if (!response.ok) {
        const detail = await response.text().catch(() => '');
        console.warn(`The security report request was not accepted (${response.status}): ${detail}`);
      }
    },
    (error: unknown) => console.warn('The security report request could not be sent:', error),
  );
}
