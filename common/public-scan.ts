import { z } from 'zod';
import { EMAIL_PATTERN, PUBLIC_SCAN_MESSAGES, URL_MESSAGES, checkMarketingUrl } from './marketing';

// The public scan call's body and answer (spec section 7, "Public scan call"), validated by the server.

export const marketingEmailSchema = z.string().trim().max(254, URL_MESSAGES.email).regex(EMAIL_PATTERN, URL_MESSAGES.email);

/** POST /v2/vibe-scanner: {url, email}. The URL must be a website, not the editor, not the product itself. */
export const publicScanRequestSchema = z.object({
  url: z
    .string(URL_MESSAGES.invalid)
    .trim()
    .min(1, URL_MESSAGES.invalid)
    .max(2048, 'The website URL cannot exceed 2048 characters')
    .transform((value, context) => {
      const check = checkMarketingUrl(value);
      if (check.status === 'lovable-project') context.addIssue({ code: 'custom', message: URL_MESSAGES.lovableProject });
      else if (check.status !== 'valid' || !check.url) context.addIssue({ code: 'custom', message: URL_MESSAGES.invalid });
      else if (check.ownDomain) context.addIssue({ code: 'custom', message: PUBLIC_SCAN_MESSAGES.ownDomainRefused });
      return check.url ?? value;
    }),
  email: z.string(URL_MESSAGES.email).pipe(marketingEmailSchema),
});

/** 202: the scan is queued; its report goes to the address. */
export const publicScanAcceptedSchema = z.object({
  id: z.uuid(),
  status: z.literal('queued'),
  message: z.string(),
});
