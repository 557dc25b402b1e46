import { NativeSelect } from '@chakra-ui/react';
import { WEBHOOK_FORMAT_LABELS, WEBHOOK_FORMATS, webhookFormatSchema, type WebhookFormat } from '@common/webhooks';

/** A choice of the webhook formats (signed JSON, Slack, Discord, Teams), named as the screen names them. */
export function FormatSelect({
  value,
  onChange,
  size = 'md',
  disabled,
  ...field
}: {
  value: WebhookFormat;
  onChange: (format: WebhookFormat) => void;
  size?: 'xs' | 'sm' | 'md';
  disabled?: boolean;
  name?: string;
  id?: string;
  'aria-label'?: string;
  'aria-describedby'?: string;
}) {
  return (
    <NativeSelect.Root size={size} disabled={disabled}>
      <NativeSelect.Field
        {...field}
        value={value}
        onChange={(event) => {
          const chosen = webhookFormatSchema.safeParse(event.target.value);
          if (chosen.success) onChange(chosen.data);
        }}
      >
        {WEBHOOK_FORMATS.map((format) => (
          <option key={format} value={format}>
            {WEBHOOK_FORMAT_LABELS[format]}
          </option>
        ))}
      </NativeSelect.Field>
      <NativeSelect.Indicator />
    </NativeSelect.Root>
  );
}
