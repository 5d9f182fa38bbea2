/**
 * Request examples of the OpenAPI document. Each is valid as it stands: Swagger UI pre-fills the
 * first of an operation, and a test executes every one, in order, against a fresh account.
 */
import type { BodyExample } from '../../common/openapi/json-body';
import type { CreateQrCodeDto } from './create-qr-code.dto';
import type { UpdateQrCodeDto } from './update-qr-code.dto';

export const CREATE_QR_CODE_EXAMPLES: Record<string, BodyExample<CreateQrCodeDto>> = {
  dynamicUrl: {
    summary: 'A dynamic link with rounded dots (the target can change after printing)',
    value: {
      type: 'url',
      name: 'Spring poster',
      content: { url: 'https://example.com/spring-sale?utm_source=qr' },
      is_dynamic: true,
      tags: ['spring', 'store-12'],
      style: {
        dotsOptions: { type: 'rounded', color: '#1a237e' },
        cornersSquareOptions: { type: 'extra-rounded', color: '#0d47a1' },
        backgroundOptions: { color: '#ffffff' },
      },
    },
  },
  wifi: {
    summary: 'Wi-Fi credentials, static',
    value: {
      type: 'wifi',
      name: 'Guest Wi-Fi',
      content: { ssid: 'Cafe Guest', password: 'correct horse battery', encryption: 'WPA' },
    },
  },
  gradientVcard: {
    summary: 'A contact card with a gradient, corner dots and a circle shape',
    value: {
      type: 'vcard',
      name: 'Ada Lovelace',
      content: { first_name: 'Ada', last_name: 'Lovelace', organization: 'Analytical Engines Ltd', email: 'ada@example.com' },
      style: {
        dotsOptions: {
          type: 'dots',
          gradient: {
            type: 'linear',
            rotation: 45,
            colorStops: [
              { offset: 0, color: '#4a148c' },
              { offset: 1, color: '#1a237e' },
            ],
          },
        },
        cornersSquareOptions: { type: 'extra-rounded', color: '#311b92' },
        cornersDotOptions: { type: 'dot' },
        qrOptions: { errorCorrectionLevel: 'Q' },
        shape: 'circle',
      },
    },
  },
  dynamicText: {
    summary: 'A dynamic text: its short link answers a page showing the text',
    value: { type: 'text', name: 'Table card', content: { text: 'Table 12: ask for the special of the day' }, is_dynamic: true },
  },
  email: {
    summary: 'An e-mail with a subject and body, static',
    value: { type: 'email', name: 'Support mail', content: { to: 'support@example.com', subject: 'Order 1042', body: 'Hello,' } },
  },
  phone: { summary: 'A phone number to call, static', value: { type: 'phone', name: 'Hotline', content: { number: '+49 30 1234567' } } },
  sms: {
    summary: 'A text message to send, static',
    value: { type: 'sms', name: 'Join by SMS', content: { number: '+1 555 010 9999', message: 'JOIN SPRING' } },
  },
  geo: { summary: 'A place on a map, static', value: { type: 'geo', name: 'Main entrance', content: { latitude: 52.520008, longitude: 13.404954 } } },
  event: {
    summary: 'A calendar event, dynamic (the time can change after printing)',
    value: {
      type: 'event',
      name: 'Open day',
      content: { title: 'Open day', start: '2030-06-01T18:00:00+02:00', end: '2030-06-01T21:00:00+02:00', location: 'Main Hall' },
      is_dynamic: true,
    },
  },
};

export const UPDATE_QR_CODE_EXAMPLES: Record<string, BodyExample<UpdateQrCodeDto>> = {
  renameAndRetarget: {
    summary: 'Rename, point the link elsewhere and restyle (url codes)',
    value: {
      name: 'Spring poster (final)',
      content: { url: 'https://example.com/spring-sale?utm_source=poster' },
      style: { dotsOptions: { type: 'classy-rounded', color: '#004d40' }, margin: 16 },
    },
  },
  retag: {
    summary: 'Replace the tags (names in any case name the existing tag; new names make new tags; [] removes them all)',
    value: { tags: ['Spring', 'window', 'store-12'] },
  },
  pause: { summary: 'Pause a dynamic link (it answers 410 until active again)', value: { status: 'paused' } },
  resumeWithExpiry: {
    summary: 'Resume a dynamic link until a date, outside any folder',
    value: { status: 'active', expires_at: '2099-12-31T23:59:59.000Z', folder_id: null },
  },
};
