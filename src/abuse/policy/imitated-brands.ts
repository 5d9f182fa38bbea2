/**
 * Brands that phishing imitates most often (after the Check Point and Vade brand-phishing
 * reports, 2023-2024), with the names a lookalike host borrows and the registrable domains the
 * brand itself uses. A host that borrows a name outside those domains raises its `risk`
 * (docs/abuse-handling.md#risk); it is never refused for that alone. Kept by hand.
 */
export interface ImitatedBrand {
  /** the names a lookalike borrows, lower case ASCII */
  names: readonly string[];
  /** registrable domains of the brand: hosts there (and under the brand's name in a country's domain) are its own */
  domains: readonly string[];
}

export const IMITATED_BRANDS: readonly ImitatedBrand[] = [
  {
    names: ['microsoft', 'office365', 'outlook', 'onedrive', 'sharepoint', 'hotmail'],
    domains: [
      'microsoft.com',
      'microsoftonline.com',
      'office.com',
      'office365.com',
      'outlook.com',
      'live.com',
      'hotmail.com',
      'sharepoint.com',
      'onedrive.com',
      'msn.com',
      'windows.net',
      'azure.com',
      'bing.com',
      'skype.com',
      'xbox.com',
    ],
  },
  {
    names: ['google', 'gmail'],
    domains: ['google.com', 'gmail.com', 'googleusercontent.com', 'gstatic.com', 'youtube.com', 'goo.gl', 'withgoogle.com', 'blogspot.com'],
  },
  { names: ['apple', 'icloud', 'itunes'], domains: ['apple.com', 'icloud.com', 'itunes.com', 'me.com'] },
  {
    names: ['amazon'],
    domains: ['amazon.com', 'amazonaws.com', 'amazon.co.uk', 'amazon.de', 'amazon.fr', 'amazon.co.jp', 'amazon.in', 'amzn.to', 'a2z.com'],
  },
  { names: ['paypal'], domains: ['paypal.com', 'paypal.me', 'paypalobjects.com'] },
  {
    names: ['facebook', 'instagram', 'whatsapp', 'messenger'],
    domains: ['facebook.com', 'fb.com', 'fb.me', 'instagram.com', 'whatsapp.com', 'whatsapp.net', 'messenger.com', 'meta.com'],
  },
  { names: ['linkedin'], domains: ['linkedin.com', 'lnkd.in'] },
  { names: ['netflix'], domains: ['netflix.com', 'nflxext.com'] },
  { names: ['dhl'], domains: ['dhl.com', 'dhl.de'] },
  { names: ['fedex'], domains: ['fedex.com'] },
  { names: ['ups'], domains: ['ups.com'] },
  { names: ['usps'], domains: ['usps.com'] },
  { names: ['adobe'], domains: ['adobe.com', 'adobe.io', 'typekit.net'] },
  { names: ['docusign'], domains: ['docusign.com', 'docusign.net'] },
  { names: ['dropbox'], domains: ['dropbox.com', 'dropboxusercontent.com', 'db.tt'] },
  { names: ['wellsfargo'], domains: ['wellsfargo.com', 'wf.com'] },
  { names: ['chase'], domains: ['chase.com', 'jpmorganchase.com', 'jpmorgan.com'] },
  { names: ['bankofamerica'], domains: ['bankofamerica.com', 'bofa.com'] },
  { names: ['coinbase'], domains: ['coinbase.com'] },
  { names: ['binance'], domains: ['binance.com', 'binance.us'] },
  { names: ['metamask'], domains: ['metamask.io'] },
  { names: ['steam', 'steamcommunity'], domains: ['steampowered.com', 'steamcommunity.com', 'steamstatic.com'] },
  { names: ['roblox'], domains: ['roblox.com'] },
  { names: ['walmart'], domains: ['walmart.com'] },
  { names: ['yahoo'], domains: ['yahoo.com', 'yahoo.co.jp', 'yimg.com'] },
  { names: ['ebay'], domains: ['ebay.com', 'ebay.co.uk', 'ebay.de'] },
  { names: ['spotify'], domains: ['spotify.com', 'spotify.link'] },
  { names: ['telegram'], domains: ['telegram.org', 't.me', 'telegram.me'] },
  { names: ['booking'], domains: ['booking.com'] },
  { names: ['airbnb'], domains: ['airbnb.com'] },
  { names: ['alibaba', 'aliexpress'], domains: ['alibaba.com', 'aliexpress.com'] },
  { names: ['americanexpress', 'amex'], domains: ['americanexpress.com', 'aexp.com'] },
];
