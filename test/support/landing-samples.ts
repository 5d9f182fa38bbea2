import type { QrTypeName } from './factories';

/**
 * Dynamic codes whose landing pages the browser tests and the screenshot script open: one of each
 * type as a real user would fill it in, plus the hard cases (right-to-left and emoji names, very long fields, an
 * open hidden network, a long text with links that must and must not become links).
 */
export interface LandingSample {
  name: string;
  type: Exclude<QrTypeName, 'url'>;
  content: Record<string, unknown>;
}

export const LANDING_SAMPLES = [
  {
    name: 'vcard',
    type: 'vcard',
    content: {
      first_name: 'Ada',
      last_name: 'Lovelace',
      title: 'Chief Mathematician',
      organization: 'Analytical Engines Ltd',
      phone: '+44 20 7946 0000',
      mobile: '+44 7700 900123',
      email: 'ada@example.com',
      website: 'https://example.com/ada',
      address: { street: '12 Example Street', city: 'London', postcode: 'N1 9GU', country: 'United Kingdom' },
      note: 'Met at the spring fair.\nAsk about the engine.',
    },
  },
  {
    name: 'vcard-rtl',
    type: 'vcard',
    content: { first_name: 'ليلى', last_name: 'حداد 🌟', title: 'مهندسة', organization: 'Acme Ltd', mobile: '+971 50 123 4567' },
  },
  {
    name: 'vcard-long',
    type: 'vcard',
    content: {
      first_name: 'Maximiliane-Konstanze'.repeat(4),
      last_name: 'Wolfeschlegelsteinhausenbergerdorff',
      organization: 'Internationale Gesellschaft für außerordentlich lange Firmennamen und ähnliche Angelegenheiten mbH & Co. KG',
      email: `${'verylongname'.repeat(5)}@${'department.'.repeat(10)}example.com`,
      website: `https://example.com/${'path/'.repeat(60)}`,
      note: `A note with one unbroken word: ${'x'.repeat(1000)}`,
    },
  },
  {
    name: 'event',
    type: 'event',
    content: {
      title: 'Spring open day',
      start: '2030-06-01T18:00:00+02:00',
      end: '2030-06-01T21:00:00+02:00',
      location: 'Main Hall, Example Street 1, Berlin',
      description: 'Tours every hour, free entry.\nProgramme: https://example.com/open-day',
    },
  },
  { name: 'event-utc', type: 'event', content: { title: 'Release call', start: '2030-03-14T09:30:00' } },
  { name: 'wifi', type: 'wifi', content: { ssid: 'CafeNet', password: 'secret123', encryption: 'WPA' } },
  { name: 'wifi-hidden-open', type: 'wifi', content: { ssid: 'Back Office', encryption: 'nopass', hidden: true } },
  { name: 'phone', type: 'phone', content: { number: '+49 30 1234567' } },
  { name: 'sms', type: 'sms', content: { number: '+1 (555) 010-9999', message: 'JOIN us & save 10%' } },
  { name: 'email', type: 'email', content: { to: 'hello@example.com', subject: 'Order 12 & more', body: 'Hi there\nline 2' } },
  { name: 'geo', type: 'geo', content: { latitude: 52.520008, longitude: 13.404954 } },
  { name: 'text', type: 'text', content: { text: 'Table 12, ask for the special' } },
  {
    name: 'text-links',
    type: 'text',
    content: {
      text:
        'Welcome to the spring fair!\nProgramme and map: https://example.com/fair?day=1.\n' +
        'Not a link: javascript:alert(1) and data:text/html,<b>x</b>.',
    },
  },
] as const satisfies readonly LandingSample[];

export type LandingSampleName = (typeof LANDING_SAMPLES)[number]['name'];

/** The pages of links that cannot be opened, with their status codes. */
export const STATUS_SAMPLES = [
  { name: 'paused', status: 410, heading: 'This code is paused' },
  { name: 'expired', status: 410, heading: 'This code has expired' },
  { name: 'not-found', status: 404, heading: 'Code not found' },
  { name: 'unavailable', status: 503, heading: 'Temporarily unavailable' },
] as const;

/**
 * The pages of the link controls (docs/smart-links.md#link-controls): a protected link's password
 * form, a limited link past its limit, and the answer to too many wrong passwords (a form post's).
 */
export const LINK_CONTROL_SAMPLES = [
  { name: 'password', status: 200, heading: 'Password required' },
  { name: 'limit-reached', status: 410, heading: 'Scan limit reached' },
  { name: 'too-many-attempts', status: 429, heading: 'Too many attempts' },
] as const;

/** The password of the samples' protected links. */
export const SAMPLE_LINK_PASSWORD = 'correct horse';
