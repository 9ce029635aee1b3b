// jq-web ships no types: its CommonJS export is a promise of the instantiated jq module.
declare module 'jq-web' {
  const jq: Promise<{ raw(input: string, filter: string, flags?: string[]): string }>;
  export default jq;
}
