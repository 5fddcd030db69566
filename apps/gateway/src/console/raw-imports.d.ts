// Files the bundler (scripts/bundle-binary.mjs) and Vitest inline as text: `import text from './file.css?raw'`.
declare module '*?raw' {
  const text: string;
  export default text;
}
