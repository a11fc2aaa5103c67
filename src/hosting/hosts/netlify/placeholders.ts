// Netlify and Cloudflare Pages write a path parameter as `:name`; our rule list writes `{name}`.
export function toPlaceholders(url: string): string {
  return url.replace(/\{(\w+)\}/g, (_, name: string) => `:${name}`);
}
