/** The downloadable brand files in renderer/public/brand/ and the colours they use (press kit). */

export interface BrandAsset {
  name: string;
  /** Served path; the file name is also the name the download is saved under. */
  href: string;
  fileName: string;
  description: string;
  alt: string;
  /** The preview tile's background: the files are transparent and each is drawn for one kind of background. */
  background: 'light' | 'dark';
}

export const BRAND_ASSETS: readonly BrandAsset[] = [
  {
    name: 'Logo mark',
    href: '/brand/vibeeval-mark.svg',
    fileName: 'vibeeval-mark.svg',
    description: 'The shield and check on its own, for app icons, avatars and small spaces. Keep at least 24 px tall.',
    alt: 'vibeeval logo mark: an indigo shield with a white check mark',
    background: 'light',
  },
  {
    name: 'Wordmark for light backgrounds',
    href: '/brand/vibeeval-wordmark-light.svg',
    fileName: 'vibeeval-wordmark-light.svg',
    description: 'The full logo with dark lettering, for white or light-coloured pages, slides and print.',
    alt: 'vibeeval wordmark with dark lettering on a light background',
    background: 'light',
  },
  {
    name: 'Wordmark for dark backgrounds',
    href: '/brand/vibeeval-wordmark-dark.svg',
    fileName: 'vibeeval-wordmark-dark.svg',
    description: 'The full logo with white lettering, for dark pages, video overlays and event screens.',
    alt: 'vibeeval wordmark with white lettering on a dark background',
    background: 'dark',
  },
];

export interface BrandColour {
  name: string;
  hex: string;
  use: string;
}

export const BRAND_COLOURS: readonly BrandColour[] = [
  { name: 'Indigo', hex: '#4f46e5', use: 'Primary brand colour: the logo mark, buttons and highlights.' },
  { name: 'Deep indigo', hex: '#4338ca', use: 'Links and text in the brand colour on light backgrounds.' },
  { name: 'Indigo mist', hex: '#eef2ff', use: 'Tinted panels and backgrounds behind brand content.' },
  { name: 'Ink', hex: '#18181b', use: 'Wordmark lettering, headlines and dark backgrounds.' },
  { name: 'White', hex: '#ffffff', use: 'Page background, and the check mark inside the shield.' },
];
