import Joi from 'joi';
import { MAILTO, MAX_RECIPIENTS, recipientsOf } from '../../domain/channels.js';
import { discordPayload, jsonRequest, signature, slackPayload, webhookPayload } from '../payloads.js';
import type { HttpChannelKind, MailChannelKind } from './kind.js';

// The first kinds: Slack and Discord incoming webhooks, pingmon's own signed webhook, and e-mail.

export const slack: HttpChannelKind = {
  type: 'slack',
  label: 'Slack',
  url: { describe: 'The incoming webhook URL (Slack app → Incoming Webhooks): https://hooks.slack.com/services/…' },
  secret: { need: 'none' },
  request: (channel, content) => jsonRequest(channel.url, slackPayload(content)),
};

export const discord: HttpChannelKind = {
  type: 'discord',
  label: 'Discord',
  url: { describe: "The channel's webhook URL (Server settings → Integrations → Webhooks)" },
  secret: { need: 'none' },
  request: (channel, content) => jsonRequest(channel.url, discordPayload(content)),
};

export const webhook: HttpChannelKind = {
  type: 'webhook',
  label: 'Webhook',
  url: { describe: 'Your endpoint: it receives every alert as JSON (docs/api.md#webhook-payload)' },
  secret: { need: 'optional', describe: 'Signs each payload (X-Pingmon-Signature), for the receiver to verify' },
  request(channel, content, { nowSeconds }) {
    const request = jsonRequest(channel.url, webhookPayload(content));
    if (channel.secret !== null) {
      request.headers['x-pingmon-signature'] = signature(channel.secret, request.body, nowSeconds);
    }
    return request;
  },
};

const address = Joi.string().email({ tlds: { allow: false } });

export const email: MailChannelKind = {
  type: 'email',
  label: 'E-mail',
  url: {
    describe: 'Its recipients: mailto:ops@example.com,oncall@example.com (sent through the server’s SMTP server)',
    // Kept as "mailto:a@example.com,b@example.com".
    schema: Joi.string()
      .trim()
      .max(2000)
      .custom((value: string, helpers) => {
        if (!value.toLowerCase().startsWith(MAILTO) || value.includes('?')) return helpers.error('string.mailto');
        const addresses = recipientsOf(value);
        if (addresses.length > MAX_RECIPIENTS) return helpers.error('string.recipients');
        const wrong = addresses.find((a) => address.validate(a).error !== undefined);
        if (wrong !== undefined) return helpers.error('string.address', { address: wrong });
        return MAILTO + addresses.join(',');
      })
      .messages({
        'string.mailto':
          '"url" of an email channel must be mailto: and the addresses of its recipients, separated by commas, ' +
          'e.g. mailto:ops@example.com,oncall@example.com',
        'string.recipients': `"url" of an email channel can name at most ${MAX_RECIPIENTS} recipients`,
        'string.address': '"{{#address}}" in "url" is not an e-mail address',
      }),
  },
  secret: { need: 'none' },
};
