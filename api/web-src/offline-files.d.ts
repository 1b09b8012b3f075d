/** What api/http/offline-bundle.ts puts in the browser bundle: the server's card text. */
declare module 'tilemate:offline-files' {
  export const SERVER_CARD: string;
}
