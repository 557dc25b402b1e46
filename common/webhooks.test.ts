import { describe, expect, it } from 'vitest';
import { suggestedWebhookFormat, webhookBodySchema, webhookUpdateSchema } from './webhooks';

describe('webhook formats', () => {
  it('suggests the chat format from the incoming-webhook hosts, and nothing for any other URL', () => {
    expect(suggestedWebhookFormat('https://hooks.slack.com/services/T000/B000/XXXX')).toBe('slack');
    expect(suggestedWebhookFormat(' https://discord.com/api/webhooks/123/abc ')).toBe('discord');
    expect(suggestedWebhookFormat('https://ptb.discordapp.com/api/webhooks/123/abc')).toBe('discord');
    expect(suggestedWebhookFormat('https://contoso.webhook.office.com/webhookb2/x')).toBe('teams');
    expect(suggestedWebhookFormat('https://prod-12.westus.logic.azure.com:443/workflows/abc/triggers/manual/paths/invoke')).toBe('teams');
    expect(suggestedWebhookFormat('https://default1234.environment.api.powerplatform.com/powerautomate/automations/direct/workflows/x')).toBe('teams');
    // Hosts that only look alike, a Discord page that is not a webhook, and no URL at all.
    expect(suggestedWebhookFormat('https://hooks.slack.com.evil.example/services/x')).toBeNull();
    expect(suggestedWebhookFormat('https://notdiscord.com/api/webhooks/1/a')).toBeNull();
    expect(suggestedWebhookFormat('https://discord.com/channels/1/2')).toBeNull();
    expect(suggestedWebhookFormat('https://example.com/hooks/slack')).toBeNull();
    expect(suggestedWebhookFormat('hooks.slack.com')).toBeNull();
  });

  it('takes the format with the URL (the signed JSON when left out) and refuses other names', () => {
    expect(webhookBodySchema.parse({ url: 'https://example.com/hook' })).toEqual({ url: 'https://example.com/hook', format: 'standard' });
    expect(webhookBodySchema.parse({ url: 'https://example.com/hook', format: 'teams' }).format).toBe('teams');
    expect(webhookBodySchema.safeParse({ url: 'https://example.com/hook', format: 'Slack' }).success).toBe(false);
    expect(webhookUpdateSchema.safeParse({ format: 'discord' }).success).toBe(true);
    expect(webhookUpdateSchema.safeParse({}).success).toBe(false);
    expect(webhookUpdateSchema.safeParse({ format: 'slack', url: 'https://example.com/x' }).success).toBe(false);
  });
});
