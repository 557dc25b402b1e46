// Vite (electron-vite's build and vitest) imports a file's text with the ?raw suffix.
declare module '*.js?raw' {
  const text: string;
  export default text;
}
