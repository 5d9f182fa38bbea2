/** A scan as recorded on the hot path; classification of the user agent happens at flush time. */
export interface ScanEvent {
  eventId: string;
  codeId: string;
  /** epoch milliseconds */
  at: number;
  userAgent: string | null;
  referrer: string | null;
  visitorHash: string;
  isBot: boolean;
}

const MAX_HEADER_CHARS = 512;

export const clipHeader = (value: string | string[] | undefined): string | null => {
  const text = Array.isArray(value) ? value[0] : value;
  return text ? text.slice(0, MAX_HEADER_CHARS) : null;
};
