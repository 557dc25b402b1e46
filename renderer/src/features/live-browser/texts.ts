/** The Live Browser Demo's words, kept with the feature that shows them. */
export const texts = {
  addressLabel: 'Website address',
  addressPlaceholder: 'example.com',
  go: 'Go',
  back: 'Back',
  forward: 'Forward',
  reload: 'Reload',
  empty: 'Enter the address of a website to see it here.',
  desktopIntro: 'The site opens inside the app, in a browser of its own: it gets nothing of yours (no sign-in, no storage, no permissions).',
  webIntro: 'The site opens in a frame of this page, when it allows that.',
  checking: (host: string) => `Checking whether ${host} can be shown here…`,
  checkFailed: 'The site could not be checked. Please try again.',
  refused: 'This address cannot be shown in the live browser.',
  framingRefused: (host: string) => `${host} does not allow being shown inside another page (X-Frame-Options / frame-ancestors).`,
  openInNewTab: 'Open it in a new tab.',
  frameTitle: (host: string) => `Live view of ${host}`,
} as const;
